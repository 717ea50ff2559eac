/** wiregen/golden/vitest: the counter corpus of ours as a suite, one test per case (a server per case). */
import { goldenSuite } from 'wiregen/golden/vitest';
import { counterServer } from './counter/server.ts';

goldenSuite('test/golden/counter/corpus', counterServer);
