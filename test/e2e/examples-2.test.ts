// Every --help example runs (part 2 of 2; see test/helpers/examples-suite.ts).
import { examplesSuite } from '../helpers/examples-suite.js';

examplesSuite(2);
