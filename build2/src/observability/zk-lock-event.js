// Each event is defined next to what emits it; this is the whole vocabulary, as the public API has it.
export { ZK_LOCK_CHANNELS } from './event-sink.js';
//# sourceMappingURL=zk-lock-event.js.map