// Runs a server of test/sdk-compat/servers/ on wiregen: its imports of the official SDK's server package
// resolve to @wiregen/runtime/sdk (the one change a migration makes); every other module keeps its own.
import { register } from 'node:module';

register('./on-wiregen-hooks.mjs', import.meta.url);
