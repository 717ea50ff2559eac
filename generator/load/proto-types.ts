/**
 * @module load/proto-types — what the proto reader (load/proto.ts) returns: services, rpcs and their
 * google.api.http bindings, messages with fields, oneofs and reserved ranges, enums; each declaration with
 * its line, column and leading comment.
 */

/** One `google.api.http` binding: verb, path template and body selector. */
export interface HttpRule {
  readonly verb: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: string;
}

/** Where a declaration starts (its first token), and its leading comment as protoc reads it. */
export interface ProtoLocated {
  readonly line: number;
  readonly column: number;
  /** The leading comment: the text after each `//`, newlines kept (e.g. `" Task id.\n"`). */
  readonly doc?: string;
}

/** `reserved` statements: field (or value) numbers, as inclusive ranges, and names. */
export interface ProtoReserved {
  readonly numbers: readonly (readonly [number, number])[];
  readonly names: readonly string[];
}

export interface ProtoRpc extends ProtoLocated {
  readonly name: string;
  readonly input: string;
  readonly output: string;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
  /** The primary binding first, then `additional_bindings` in order. */
  readonly http: readonly HttpRule[];
}

export interface ProtoService extends ProtoLocated {
  readonly name: string;
  readonly rpcs: readonly ProtoRpc[];
}

export interface ProtoField extends ProtoLocated {
  readonly name: string;
  /** ProtoJSON name: lowerCamelCase of the field name. */
  readonly jsonName: string;
  readonly type: string;
  readonly number: number;
  readonly repeated: boolean;
  readonly optional: boolean;
  readonly map?: { readonly key: string; readonly value: string };
  /** `google.api.field_behavior` values, e.g. `REQUIRED`, `OUTPUT_ONLY`. */
  readonly behaviors: readonly string[];
  /** The oneof group the field belongs to, if any. */
  readonly oneof?: string;
}

export interface ProtoMessage extends ProtoLocated {
  /** Fully qualified within the file: `Outer.Inner` for nested messages. */
  readonly name: string;
  readonly fields: readonly ProtoField[];
  readonly oneofs: readonly string[];
  readonly reserved: ProtoReserved;
}

export interface ProtoEnumValue extends ProtoLocated {
  readonly name: string;
  readonly number: number;
}

export interface ProtoEnum extends ProtoLocated {
  readonly name: string;
  readonly values: readonly ProtoEnumValue[];
  readonly reserved: ProtoReserved;
}

export interface ProtoFile {
  /** Display path, for diagnostics. */
  readonly file: string;
  readonly package: string;
  /** Where the `package` statement is (line 1 when there is none). */
  readonly packageAt: ProtoLocated;
  readonly services: readonly ProtoService[];
  readonly messages: ReadonlyMap<string, ProtoMessage>;
  readonly enums: ReadonlyMap<string, ProtoEnum>;
}
