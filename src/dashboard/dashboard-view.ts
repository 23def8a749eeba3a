import type { Inspection } from '../cli/inspect.js';
import type { SessionState } from '../zookeeper/session-state.js';
import type { TimelineEntry } from './timeline.js';

/** What the page shows: everything under the root (as `inspect` reads it), and this process's session. */
export interface DashboardView extends Omit<Inspection, 'version'> {
  readonly session: { readonly state: SessionState; readonly sessionId: string | null };
}

/** What the page's event stream carries: a timeline entry, or the whole view after a change. */
export type DashboardMessage = { readonly kind: 'view'; readonly view: DashboardView } | { readonly kind: 'event'; readonly entry: TimelineEntry };
