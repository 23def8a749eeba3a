import diagnosticsChannel from 'node:diagnostics_channel';
import {
  ZK_LOCK_CHANNELS,
  type LeadershipEvent,
  type LockEvent,
  type SessionEvent,
  type ZkLockChannel,
} from './zk-lock-event.js';

/** The event type each channel carries. */
export interface ZkLockEventsByChannel {
  lock: LockEvent;
  leadership: LeadershipEvent;
  session: SessionEvent;
}

/**
 * Where the recipes and the session report what happens. The hot path asks `wants()` first and
 * builds no event at all when it says no: with nobody listening, an event costs one property read.
 */
export interface ZkLockEventSink {
  /** Whether anything listens to `channel` right now. */
  wants(channel: ZkLockChannel): boolean;
  /** Delivers `event` to whoever listens; never throws into the caller. */
  emit<C extends ZkLockChannel>(channel: C, event: ZkLockEventsByChannel[C]): void;
}

// Held here for the life of the process: a channel object nobody references can be collected,
// and with it the cheap `hasSubscribers` answer.
const channels: Record<ZkLockChannel, diagnosticsChannel.Channel> = {
  lock: diagnosticsChannel.channel(ZK_LOCK_CHANNELS.lock),
  leadership: diagnosticsChannel.channel(ZK_LOCK_CHANNELS.leadership),
  session: diagnosticsChannel.channel(ZK_LOCK_CHANNELS.session),
};

/** Whether `channel` has a `diagnostics_channel` subscriber. */
export function channelHasSubscribers(channel: ZkLockChannel): boolean {
  return channels[channel].hasSubscribers;
}

/**
 * Publishes on the diagnostics channel if it has subscribers. `publish` calls them synchronously
 * and rethrows a subscriber's error on the next tick, so a faulty subscriber never breaks a lock.
 */
export function publishOnChannel<C extends ZkLockChannel>(channel: C, event: ZkLockEventsByChannel[C]): void {
  const target = channels[channel];
  if (target.hasSubscribers) target.publish(event);
}

/** The sink of recipes used without the Nest module (e.g. a bare `LockClient`): diagnostics channels only. */
export const diagnosticsSink: ZkLockEventSink = {
  wants: channelHasSubscribers,
  emit: publishOnChannel,
};
