/**
 * Every conformance scenario: client-level behaviours whose transcripts must be the same on every
 * target. Each scenario's `expected` is what the real server produced, checked against
 * ZooKeeper's documented semantics; comments say where the real server surprised us.
 */
import type { Scenario } from './transcript.js';
import { ensembleConfigScenarios } from './scenarios/ensemble-config.js';
import { nodeScenarios } from './scenarios/nodes.js';
import { addWatchScenarios, powerScenarios } from './scenarios/powers.js';
import { sessionScenarios } from './scenarios/sessions.js';
import { watchScenarios } from './scenarios/watches.js';

export const scenarios: readonly Scenario[] = [...nodeScenarios, ...watchScenarios, ...sessionScenarios, ...powerScenarios, ...addWatchScenarios, ...ensembleConfigScenarios];
