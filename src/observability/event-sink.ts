import { channel, type Channel } from 'node:diagnostics_channel';

/**
 * The `node:diagnostics_channel` names the library publishes on. Every event's `type` starts with
 * its channel's key (`lock.`, `leadership.`, `session.`). Subscribe with
 * `diagnostics_channel.subscribe(ZK_LOCK_CHANNELS.lock, (event) => ...)`.
 */
export const ZK_LOCK_CHANNELS = {
  lock: 'nestjs-zk-lock:lock',
  leadership: 'nestjs-zk-lock:leadership',
  session: 'nestjs-zk-lock:session',
} as const;

export type ZkLockChannel = keyof typeof ZK_LOCK_CHANNELS;

/**
 * Where a layer reports what happens; `Events` maps each channel it reports on to the events that
 * channel carries there (the session: `{ session: SessionEvent }`). The hot path asks `wants()`
 * first and builds no event at all when it says no: with nobody listening, an event costs one
 * property read. The sink knows channels, not events, so every layer can report through one.
 */
export interface EventSink<Events extends { readonly [C in ZkLockChannel]?: object }> {
  /** Whether anything listens to `channel` right now. */
  wants(channel: keyof Events & ZkLockChannel): boolean;
  /** Delivers `event` to whoever listens; never throws into the caller. */
  emit<C extends keyof Events & ZkLockChannel>(channel: C, event: Events[C]): void;
}

// Held here for the life of the process: a channel object nobody references can be collected,
// and with it the `hasSubscribers` answer that `wants` reads.
const channels: Record<ZkLockChannel, Channel> = {
  lock: channel(ZK_LOCK_CHANNELS.lock),
  leadership: channel(ZK_LOCK_CHANNELS.leadership),
  session: channel(ZK_LOCK_CHANNELS.session),
};

/** Whether `channel` has a `diagnostics_channel` subscriber. */
export function channelHasSubscribers(channel: ZkLockChannel): boolean {
  return channels[channel].hasSubscribers;
}

/**
 * Publishes on the diagnostics channel if it has subscribers. `publish` calls them synchronously
 * and rethrows a subscriber's error on the next tick, so a faulty subscriber never breaks a lock.
 */
export function publishOnChannel(channel: ZkLockChannel, event: object): void {
  const target = channels[channel];
  if (target.hasSubscribers) target.publish(event);
}

/**
 * The sink of recipes used without the Nest module (e.g. a bare `LockClient`): diagnostics
 * channels only. It takes any channel's events, so it serves as any layer's `EventSink`.
 */
export const diagnosticsSink = {
  wants: channelHasSubscribers,
  emit: publishOnChannel,
} satisfies EventSink<Record<ZkLockChannel, object>>;
