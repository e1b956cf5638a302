// Reads a sandbox state file as another process would (its own connection: what is committed),
// for tests that check what a sandbox kept, also after it was killed. A reader takes no write
// lock: a sandbox in this very process goes on meanwhile.
import { stateDoc } from '../../src/sandbox/state-doc.js';
import { openState } from '../../src/sandbox/state-file.js';
import type { SandboxStateDoc } from '../../src/sandbox/model.js';

export function readState(file: string): SandboxStateDoc {
  const store = openState({ file, reader: true });
  try {
    return stateDoc(store);
  } finally {
    store.close();
  }
}
