// Every --help example runs (part 1 of 2; see test/helpers/examples-suite.ts).
import { examplesSuite } from '../helpers/examples-suite.js';

examplesSuite(1);
