import { channel } from 'node:diagnostics_channel';
/**
 * The `node:diagnostics_channel` names the library publishes on. Every event's `type` starts with
 * its channel's key (`lock.`, `leadership.`, `session.`). Subscribe with
 * `diagnostics_channel.subscribe(ZK_LOCK_CHANNELS.lock, (event) => ...)`.
 */
export const ZK_LOCK_CHANNELS = {
    lock: 'nestjs-zk-lock:lock',
    leadership: 'nestjs-zk-lock:leadership',
    session: 'nestjs-zk-lock:session',
};
// Held here for the life of the process: a channel object nobody references can be collected,
// and with it the `hasSubscribers` answer that `wants` reads.
const channels = {
    lock: channel(ZK_LOCK_CHANNELS.lock),
    leadership: channel(ZK_LOCK_CHANNELS.leadership),
    session: channel(ZK_LOCK_CHANNELS.session),
};
/** Whether `channel` has a `diagnostics_channel` subscriber. */
export function channelHasSubscribers(channel) {
    return channels[channel].hasSubscribers;
}
/**
 * Publishes on the diagnostics channel if it has subscribers. `publish` calls them synchronously
 * and rethrows a subscriber's error on the next tick, so a faulty subscriber never breaks a lock.
 */
export function publishOnChannel(channel, event) {
    const target = channels[channel];
    if (target.hasSubscribers)
        target.publish(event);
}
/**
 * The sink of recipes used without the Nest module (e.g. a bare `LockClient`): diagnostics
 * channels only. It takes any channel's events, so it serves as any layer's `EventSink`.
 */
export const diagnosticsSink = {
    wants: channelHasSubscribers,
    emit: publishOnChannel,
};
//# sourceMappingURL=event-sink.js.map