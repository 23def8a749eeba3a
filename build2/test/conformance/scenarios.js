import { nodeScenarios } from './scenarios/nodes.js';
import { sessionScenarios } from './scenarios/sessions.js';
import { watchScenarios } from './scenarios/watches.js';
export const scenarios = [...nodeScenarios, ...watchScenarios, ...sessionScenarios];
//# sourceMappingURL=scenarios.js.map