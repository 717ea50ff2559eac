/**
 * @module evolve/help — the `--help` of `wiregen pin` and `wiregen diff`, apart from the commands so the CLI can
 * list them without loading the comparison code.
 */
export const PIN_HELP = `Usage: wiregen pin <pin-id> --from <dir-or-file> [--repo URL] [--commit SHA] [--tag T] [--path P]
                   [--date D] [--update] [--draft] [--check]

Copies a protocol revision's files into schemas/<protocol>/<revision>/ (MCP: schema.json and examples/;
A2A: the .proto and its bundled JSON Schema), records each file's provenance and sha256 in
schemas/pins.json, and for a new pin starts schemas/manifest/<pin-id>.yaml from the nearest pin's. Then
runs the manifest cross-check: its findings are what must be filled in before 'npm run generate'.
When --from is in a git checkout, the commit, its date, an exact tag, the origin and the path are read off.

Options:
  --from <dir-or-file>  the source: a folder of an upstream checkout (e.g. schema/2026-07-28, specification),
                        or one file replacing the pin's schema, proto or bundle
  --repo <url>          the source repository (default: git origin, else the pin's or the nearest pin's)
  --commit <sha>        the source commit, 40 hex digits (default: the checkout's HEAD)
  --tag <tag>           a release tag at that commit (default: the checkout's exact tag, if any)
  --path <path>         where --from lives in the repository (default: from git or the pin's records)
  --date <iso>          the commit's date, ISO 8601 (default: git's); orders package pseudo-versions
  --update              re-pin an existing pin (without it, the pin id must be new)
  --draft               mark the pin not served: generated and diffable, never negotiated
                        (implied for a new pin of the revision "draft", e.g. mcp-draft)
  --check               write nothing: exit 0 when schemas/ already holds the source as pinned, else 1
  -h, --help            this help

Exit: 0 pinned and the manifest agrees, 1 pinned with cross-check findings to fill in (or --check found
differences), 2 bad input (nothing written).`;

export const DIFF_HELP = `Usage: wiregen diff --against <git-ref> [<spec>...] [--json]      (any project)
       wiregen diff <spec-a> <spec-b> [--json]
       wiregen diff <pinA> <pinB> [--json]                       (the wiregen repository)
       wiregen diff --against <git-ref> [<pin-id>...] [--json]

In your project, your contract is your spec (server.yaml, agent.yaml): --against HEAD compares it with the
committed version (the specs your package.json scripts generate with --spec, else server.yaml or agent.yaml;
or the ones named), and two spec files are compared with each other. What is reported is what changed for
your clients:
  an MCP server   tools, resources, resource templates and prompts removed or added; each tool's inputSchema
                  as what clients send (a new required argument, a narrower type or enum breaks them; an
                  argument made optional does not) and its outputSchema as what they receive (a property that
                  may now be missing, a new enum value breaks them); an argument, output property or prompt
                  argument renamed (the sole one removed and the sole one added, alike) as one finding; tool
                  annotations, their defaults applied (readOnlyHint dropped breaks clients that approve on
                  it); prompt arguments; the capabilities of both eras; the wire choices (unknownTool, …)
  an A2A agent    the card's interfaces, capabilities (streaming, pushNotifications, extendedAgentCard),
                  extensions, input and output modes, skills, security requirements and schemes

In the wiregen repository (schemas/pins.json), it reports what changed between two pins of one protocol (e.g.
mcp-2025-11-25 mcp-2026-07-28), or between the working tree's pins and a committed version (--against HEAD,
--against origin/main): definitions, properties, required-ness, types, enums, consts, formats,
additionalProperties; methods, their params, results and capability gates; for A2A also proto messages,
fields (renamed, renumbered, type or cardinality changed), enum values, rpcs and HTTP routes.

Each finding has a rule id and a class, as buf breaking does: wire-breaking, source-breaking or compatible,
and the file, line and JSON pointer of the change (of the committed file, <spec>@<ref>, for what was removed).

Options:
  --against <git-ref>  compare the working tree's specs (or pins) with that commit's
  --json               one JSON document: { comparisons: [{ from, to, counts, findings }], breaking }
  -h, --help           this help

Exit: 0 nothing breaking, 100 something wire- or source-breaking (as buf breaking), 2 bad input.`;
