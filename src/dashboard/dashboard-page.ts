/**
 * The dashboard's one page: HTML, CSS and a small script, no framework and no build step, so
 * that the module adds no runtime dependency. The script opens the event stream (`api/stream`),
 * draws the view it receives (locks, elections, read/write locks, semaphores, partition sets, this process's
 * session) and appends the timeline's entries; the filter and the selected name live in the
 * URL's hash, so a link can be shared. Everything shown is set as text, never as HTML: names,
 * identities and checkpoints are anybody's strings.
 */

/** The page. Its API is found next to it (its own URL + `/api/...`), whatever prefix the app adds. */
export function dashboardPage(): string {
  return PAGE;
}

/**
 * The filter a link carries in its hash (`location.hash`): decoded, or as written when it is not
 * valid percent-encoding (`#%`, a hand-edited link): the URIError would stop the script before it
 * opened the event stream. Runs in the page: its source is copied into the script, so it must stay
 * plain JavaScript that uses nothing from this module.
 */
export function filterOfHash(hash: string): string {
  const text = hash.slice(1);
  try {
    return decodeURIComponent(text);
  } catch (error) {
    if (error instanceof URIError) return text;
    throw error;
  }
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>nestjs-zk-lock</title>
<style>
  :root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; --ok: #15803d; --warn: #b45309; --bad: #b91c1c; --accent: #1d4ed8; }
  body { font: 14px/1.45 system-ui, sans-serif; margin: 0; }
  header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
  header h1 { font-size: 1rem; margin: 0; }
  main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; padding: 1rem; }
  @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
  section h2 { font-size: .95rem; margin: .2rem 0 .5rem; }
  table { border-collapse: collapse; width: 100%; margin-bottom: 1rem; }
  th, td { text-align: left; padding: .25rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { font-weight: 600; color: var(--muted); font-size: .8rem; }
  code, .mono { font-family: ui-monospace, monospace; font-size: .85em; }
  .muted { color: var(--muted); }
  .pill { border-radius: 999px; padding: 0 .5rem; font-size: .8rem; border: 1px solid currentColor; white-space: nowrap; }
  .ok { color: var(--ok); } .warn { color: var(--warn); } .bad { color: var(--bad); }
  button { font: inherit; font-size: .8rem; padding: .1rem .5rem; cursor: pointer; }
  input[type=search] { font: inherit; padding: .2rem .4rem; min-width: 16rem; }
  #timeline { list-style: none; padding: 0; margin: 0; max-height: 70vh; overflow: auto; }
  #timeline li { display: grid; grid-template-columns: 6.5rem 10rem 1fr; gap: .5rem; padding: .15rem 0; border-bottom: 1px solid var(--line); }
  #chart { width: 100%; height: 90px; display: block; margin-bottom: .5rem; }
  .empty { color: var(--muted); font-style: italic; }
</style>
</head>
<body>
<header>
  <h1>nestjs-zk-lock</h1>
  <span id="root" class="mono muted"></span>
  <span id="session" class="pill"></span>
  <span id="link" class="pill warn">connecting…</span>
  <input id="filter" type="search" placeholder="Filter by name" aria-label="Filter by name">
  <span id="updated" class="muted"></span>
</header>
<main>
  <div>
    <section><h2>Locks</h2><table id="locks"></table></section>
    <section><h2>Elections</h2><table id="elections"></table></section>
    <section><h2>Read/write locks</h2><table id="rwlocks"></table></section>
    <section><h2>Semaphores</h2><table id="semaphores"></table></section>
    <section><h2>Partition sets</h2><table id="partitions"></table></section>
  </div>
  <section>
    <h2>Timeline</h2>
    <svg id="chart" role="img" aria-label="events per lock over time"></svg>
    <ol id="timeline"></ol>
  </section>
</main>
<script>
(() => {
  const BASE = location.pathname.replace(/\\/+$/, '');
  // The query string the page was loaded with goes on to every request it makes (its stream, its
  // actions): EventSource sends no header of ours, so a guard may look for a token there instead.
  const QUERY = location.search;
  const MAX_WAITERS_SHOWN = 20;
  const MAX_TIMELINE = 500;
  /** After the stream failed with an error status other than the guard's: how long until the page opens it again. */
  const RETRY_MS = 5000;
  // Whose a timeline line is (entry.origin): the dashboard's watches see every process's changes.
  const ORIGINS = { process: 'this process', cluster: 'cluster', page: 'this page' };
  const $ = (id) => document.getElementById(id);
  let view = null;
  const events = [];

  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === 'class') node.className = value; else if (key.startsWith('on')) node.addEventListener(key.slice(2), value); else node.setAttribute(key, value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    return node;
  };
  const age = (ms) => ms < 1000 ? ms + ' ms' : ms < 60000 ? (ms / 1000).toFixed(1) + ' s' : ms < 3600000 ? Math.round(ms / 60000) + ' min' : (ms / 3600000).toFixed(1) + ' h';
  // A lock holder's and a leader's fencing token is its node's czxid; a lock this process holds is
  // marked so (holderToken, from its lease).
  const token = (node, heldHere) => node ? el('div', { class: 'muted mono' }, 'token ' + node.zxid + (heldHere ? ' (held here)' : '')) : null;
  const who = (node) => node ? el('span', {}, node.identity || node.node, ' ', el('span', { class: 'muted mono' }, '0x' + node.sessionId), ' ', el('span', { class: 'muted' }, age(node.ageMs)), node.releaseRequested ? el('span', { class: 'pill warn' }, 'asked to let go') : null) : el('span', { class: 'muted' }, '—');
  const filterText = () => $('filter').value.trim().toLowerCase();
  const shown = (name) => name.toLowerCase().includes(filterText());

  function readyCell(ready) {
    if (!ready) return el('span', { class: 'muted' }, '—');
    if (ready.state === 'corrupt') return el('span', { class: 'pill bad' }, 'corrupt: ' + ready.problem);
    const cls = ready.state === 'ready' ? 'pill ok' : 'pill bad';
    return el('span', {}, el('span', { class: cls }, ready.state), ' ', el('span', { class: 'muted' }, 'token ' + ready.token + ' by ' + ready.holder + ' since ' + new Date(ready.since).toLocaleTimeString()), ready.checkpoint === undefined ? null : el('div', { class: 'mono muted' }, 'checkpoint ' + JSON.stringify(ready.checkpoint)));
  }

  function queueCell(nodes) {
    if (nodes.length === 0) return el('span', { class: 'muted' }, 'none');
    const list = el('ol', { style: 'margin:0;padding-left:1.2rem' });
    for (const node of nodes.slice(0, MAX_WAITERS_SHOWN)) list.append(el('li', {}, who(node)));
    if (nodes.length > MAX_WAITERS_SHOWN) list.append(el('li', { class: 'muted' }, '… ' + (nodes.length - MAX_WAITERS_SHOWN) + ' more'));
    return list;
  }

  async function act(kind, name) {
    const question = kind === 'release' ? 'Ask the holder of lock "' + name + '" to let go?' : 'Ask the leader of election "' + name + '" to step down?';
    if (!window.confirm(question)) return;
    const path = kind === 'release' ? '/api/locks/' + encodeURIComponent(name) + '/release' : '/api/elections/' + encodeURIComponent(name) + '/step-down';
    const response = await fetch(BASE + path + QUERY, { method: 'POST', headers: { 'x-zk-lock-confirm': 'yes' } });
    const body = await response.json().catch(() => ({}));
    addEvent({ at: new Date().toISOString(), type: kind === 'release' ? 'dashboard.release' : 'dashboard.step-down', name, origin: 'page', detail: response.ok ? (body.requested ? 'asked ' + (body.identity || body.node) : 'nobody asked: ' + body.reason) : 'failed: ' + (body.message || response.status) });
  }

  function table(id, head, rows, emptyText) {
    const node = $(id);
    node.replaceChildren(el('tr', {}, ...head.map((h) => el('th', {}, h))));
    if (rows.length === 0) node.append(el('tr', {}, el('td', { class: 'empty', colspan: String(head.length) }, emptyText)));
    for (const row of rows) node.append(el('tr', { 'data-name': row.name }, ...row.cells.map((cell) => el('td', {}, cell))));
  }

  function render() {
    if (!view) return;
    $('root').textContent = view.root;
    const state = view.session.state;
    $('session').textContent = 'session ' + state + (view.session.sessionId ? ' 0x' + view.session.sessionId : '');
    $('session').className = 'pill ' + (state === 'connected' || state === 'reconnected' ? 'ok' : state === 'suspended' ? 'warn' : 'bad');
    $('updated').textContent = 'as of ' + new Date(view.at).toLocaleTimeString();
    table('locks', ['lock', 'holder', 'waiters', 'ready', ''], view.locks.filter((l) => shown(l.name)).map((l) => ({ name: l.name, cells: [
      el('code', {}, l.name), el('div', {}, who(l.holder), token(l.holder, l.holderToken !== null)), queueCell(l.waiters), readyCell(l.ready),
      l.holder ? el('button', { onclick: () => act('release', l.name) }, 'Ask to release') : '',
    ] })), 'No locks.');
    table('elections', ['election', 'leader', 'followers', 'ready', ''], view.elections.filter((e) => shown(e.name)).map((e) => ({ name: e.name, cells: [
      el('code', {}, e.name), el('div', {}, who(e.leader), token(e.leader, false)), queueCell(e.followers), readyCell(e.ready),
      e.leader ? el('button', { onclick: () => act('step-down', e.name) }, 'Ask to step down') : '',
    ] })), 'No elections.');
    table('rwlocks', ['read/write lock', 'holders', 'waiters'], view.readWriteLocks.filter((l) => shown(l.name)).map((l) => ({ name: l.name, cells: [
      el('code', {}, l.name), queueCell(l.holders.map((h) => ({ ...h, identity: h.mode + ' · ' + (h.identity || h.node) }))), queueCell(l.waiters.map((w) => ({ ...w, identity: w.mode + ' · ' + (w.identity || w.node) }))),
    ] })), 'No read/write locks.');
    const permitsOf = (n) => ({ ...n, identity: (n.identity || n.node) + ' · ' + n.take });
    table('semaphores', ['semaphore', 'permits', 'holders', 'waiters'], view.semaphores.filter((s) => shown(s.name)).map((s) => ({ name: s.name, cells: [
      el('code', {}, s.name), s.permits === null ? el('span', { class: 'muted' }, 'free (nobody queued)') : s.taken + ' of ' + s.permits,
      queueCell(s.holders.map(permitsOf)), queueCell(s.waiters.map(permitsOf)),
    ] })), 'No semaphores.');
    table('partitions', ['partition set', 'members: owns / assigned', 'not settled', 'assigner'], (view.partitionSets || []).filter((p) => shown(p.name)).map((p) => ({ name: p.name, cells: [
      el('div', {}, el('code', {}, p.name), el('div', { class: 'muted' }, p.count === null ? 'no assignment yet' : p.count + ' partitions')),
      p.members.length === 0 ? el('span', { class: 'muted' }, 'none') : el('ul', { style: 'margin:0;padding-left:1.2rem' }, ...p.members.map((m) => el('li', {}, m.identity, ' ', el('span', {}, m.owned.length + ' / ' + m.assigned.length), ' ', el('span', { class: 'muted mono' }, '0x' + m.sessionId)))),
      unsettled(p), who(p.assigner),
    ] })), 'No partition sets.');
  }

  /** The partitions of a set worth a look: owned by nobody, owned elsewhere than assigned (moving), or left dirty. */
  function unsettled(set) {
    const member = (id) => set.members.find((m) => m.member === id);
    const lines = set.partitions.flatMap((p) => {
      if (!p.owner) return [p.partition + ': owned by nobody'];
      const to = member(p.assignedTo);
      const moving = to && to.sessionId !== p.owner.sessionId ? [p.partition + ': moving to ' + to.identity] : [];
      return p.ready && p.ready.state !== 'ready' ? [...moving, p.partition + ': ' + p.ready.state] : moving;
    });
    return lines.length === 0 ? el('span', { class: 'pill ok' }, 'every partition owned as assigned') : el('ul', { style: 'margin:0;padding-left:1.2rem' }, ...lines.map((line) => el('li', {}, line)));
  }

  function addEvent(entry) {
    events.push(entry);
    if (events.length > MAX_TIMELINE) events.shift();
    if (!shown(entry.name) && entry.name !== 'session') return;
    const cls = /lost|failed|bad|expired/.test(entry.type + entry.detail) ? 'bad' : /recovery|step-down|release-requested|suspended/.test(entry.type + entry.detail) ? 'warn' : '';
    const item = el('li', { class: cls }, el('span', { class: 'muted' }, new Date(entry.at).toLocaleTimeString()), el('span', {}, el('span', { class: 'mono' }, entry.type), el('div', { class: 'muted' }, ORIGINS[entry.origin])), el('span', {}, el('code', {}, entry.name), ' ', entry.detail));
    $('timeline').prepend(item);
    while ($('timeline').children.length > MAX_TIMELINE) $('timeline').lastChild.remove();
    drawChart();
  }

  function redrawTimeline() {
    $('timeline').replaceChildren();
    const kept = events.splice(0);
    for (const entry of kept) addEvent(entry);
  }

  /** Events over the last five minutes, one row per name (the busiest eight), like the demo's terminal timeline. */
  function drawChart() {
    const svg = $('chart');
    const width = svg.clientWidth || 600, height = 90, span = 5 * 60 * 1000, now = Date.now();
    const recent = events.filter((e) => now - Date.parse(e.at) < span && shown(e.name));
    const counts = new Map();
    for (const e of recent) counts.set(e.name, (counts.get(e.name) || 0) + 1);
    const names = [...counts.keys()].sort((a, b) => counts.get(b) - counts.get(a)).slice(0, 8);
    const row = height / Math.max(names.length, 1);
    const ns = 'http://www.w3.org/2000/svg';
    svg.replaceChildren();
    names.forEach((name, i) => {
      const label = document.createElementNS(ns, 'text');
      label.setAttribute('x', '0'); label.setAttribute('y', String(i * row + row * 0.7)); label.setAttribute('font-size', '10'); label.setAttribute('fill', 'currentColor');
      label.textContent = name.length > 14 ? name.slice(0, 13) + '…' : name;
      svg.append(label);
      for (const e of recent) {
        if (e.name !== name) continue;
        const mark = document.createElementNS(ns, 'rect');
        const x = 90 + (width - 95) * (1 - (now - Date.parse(e.at)) / span);
        mark.setAttribute('x', String(x)); mark.setAttribute('y', String(i * row + 2)); mark.setAttribute('width', '3'); mark.setAttribute('height', String(Math.max(row - 4, 2)));
        mark.setAttribute('fill', /lost|failed/.test(e.type) ? '#b91c1c' : /released|free|no leader/.test(e.type + e.detail) ? '#6b7280' : '#1d4ed8');
        mark.appendChild(document.createElementNS(ns, 'title')).textContent = e.type + ' ' + e.detail;
        svg.append(mark);
      }
    });
  }

  ${filterOfHash.toString()}
  $('filter').value = filterOfHash(location.hash);
  $('filter').addEventListener('input', () => { history.replaceState(null, '', '#' + encodeURIComponent($('filter').value)); render(); redrawTimeline(); });
  window.addEventListener('hashchange', () => { $('filter').value = filterOfHash(location.hash); render(); redrawTimeline(); });

  const link = (text, cls, title) => { $('link').textContent = text; $('link').className = 'pill ' + cls; $('link').title = title || ''; };

  function openStream() {
    const stream = new EventSource(BASE + '/api/stream' + QUERY);
    // Each (re)connection starts with the recent timeline again: start the list afresh.
    stream.addEventListener('open', () => { events.length = 0; $('timeline').replaceChildren(); link('live', 'ok'); });
    stream.addEventListener('error', () => {
      // CONNECTING: the browser tries again by itself (the connection dropped). CLOSED: it gave up,
      // on an answer that is no event stream, such as a guard's 403; EventSource does not say which.
      if (stream.readyState !== EventSource.CLOSED) return link('reconnecting…', 'warn');
      stream.close();
      void askWhy();
    });
    stream.addEventListener('view', (message) => { view = JSON.parse(message.data); document.body.dataset.viewAt = view.at; render(); });
    stream.addEventListener('event', (message) => addEvent(JSON.parse(message.data)));
  }

  /** The stream's status, asked once with fetch (with the same cookies): a refusal is shown as one, anything else is tried again. */
  async function askWhy() {
    const asking = new AbortController();
    let status;
    try {
      status = (await fetch(BASE + '/api/stream' + QUERY, { signal: asking.signal, cache: 'no-store' })).status;
    } catch (error) {
      status = undefined; // unreachable: the server is down, or the network
    } finally {
      asking.abort(); // a 200 is the stream itself: only its status was wanted
    }
    if (status === 401 || status === 403) {
      return link('your guard refused the live stream: ' + status, 'bad', "The browser sends the stream request with this page's cookies but no header of yours: a guard for the page must accept a cookie (a session), the client's address, or a token in the page's query string (passed on to the stream).");
    }
    link((status === undefined ? 'unreachable' : 'the live stream failed: ' + status) + ', retrying…', 'warn');
    setTimeout(openStream, RETRY_MS);
  }

  openStream();
  setInterval(drawChart, 5000);
})();
</script>
</body>
</html>
`;
