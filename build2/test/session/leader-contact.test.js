/**
 * `LeaderContact`: which replies prove the leader touched the session, and as of when (the
 * argument is in src/zookeeper/leader-contact.ts). Pure arithmetic on send times.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeaderContact, routeOf } from '../../src/zookeeper/leader-contact.js';
const SLACK_MS = 1000;
describe('LeaderContact', () => {
    it('routes writes and sync through the leader, and nothing else', () => {
        for (const op of ['create', 'delete', 'setData', 'setAcl', 'sync'])
            assert.equal(routeOf(op), 'leader', op);
        for (const op of ['getData', 'exists', 'getChildren', 'getAcl', 'addAuth'])
            assert.equal(routeOf(op), 'local', op);
    });
    it('proves the handshake attempt, and nothing from answers the server gave itself', () => {
        const contact = new LeaderContact(() => SLACK_MS);
        contact.connected(100);
        for (const at of [200, 1500, 3000])
            contact.sent('local', at);
        assert.equal(contact.provenAt, 100, 'reads prove nothing, however many were answered');
    });
    it('dates a leader-routed answer from the latest request sent a slack before it, not from its own send', () => {
        const contact = new LeaderContact(() => SLACK_MS);
        contact.connected(0);
        contact.sent('local', 500); // a read: its touch at the follower travels with the follower's ping answers too
        contact.sent('leader', 1200);
        contact.sent('leader', 1800);
        contact.answered(1800);
        assert.equal(contact.provenAt, 500, 'the latest send at or before 1800 - slack');
        contact.answered(2200);
        assert.equal(contact.provenAt, 1200);
        assert.equal(contact.lastLeaderSendAt, 1800);
    });
    it('forgets the sends of an earlier connection: their touches went up another server\'s link', () => {
        const contact = new LeaderContact(() => SLACK_MS);
        contact.connected(0);
        contact.sent('leader', 3000);
        contact.connected(3500);
        contact.sent('leader', 4000);
        contact.answered(4000 + SLACK_MS + 1);
        assert.equal(contact.provenAt, 4000);
        contact.sent('leader', 6000);
        contact.answered(6000);
        assert.equal(contact.provenAt, 4000, 'no send of this connection lies a slack before 6000 but 4000');
    });
    it('keeps few send times, and thinning only makes a proof older', () => {
        const contact = new LeaderContact(() => SLACK_MS);
        contact.connected(0);
        for (let at = 1; at <= 10_000; at += 1)
            contact.sent('leader', at);
        contact.answered(10_000);
        assert.ok(contact.provenAt <= 9000 && contact.provenAt > 9000 - SLACK_MS / 8, `proven at ${contact.provenAt}`);
    });
});
//# sourceMappingURL=leader-contact.test.js.map