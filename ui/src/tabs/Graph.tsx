import cytoscape from 'cytoscape';
import { useEffect, useRef, useState } from 'react';
import type { TabProps } from '../App';
import { api, keyInUse, message, ok, type FoundEntity, type Neighbourhood } from '../api/client';
import type { Action, GraphEdge, GraphNode } from '../state';
import { plural } from '../format';

/** The nodes and edges a neighbourhood adds: its entities, their relations, and the documents that state them. */
export function fromNeighbourhood(n: Neighbourhood): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const centre = n.entity;
  if (!centre?.id) return { nodes: [], edges: [] };
  const nodes: GraphNode[] = [entityNode(centre)];
  const edges: GraphEdge[] = [];
  for (const r of n.neighbours ?? []) {
    if (!r.entity?.id) continue;
    nodes.push(entityNode(r.entity));
    const [from, to] = r.direction === 'in' ? [r.entity.id, centre.id] : [centre.id, r.entity.id];
    edges.push({ id: `${from}|${r.predicate}|${to}`, source: from, target: to, label: r.predicate ?? '' });
    if (r.document_id) {
      const doc = `doc:${r.document_id}`;
      nodes.push({ id: doc, label: shortDoc(r.document_id), type: 'document', kind: 'document', expanded: true });
      edges.push({ id: `${centre.id}|stated in|${doc}`, source: centre.id, target: doc, label: 'stated in' });
    }
  }
  return { nodes, edges };
}

function entityNode(e: FoundEntity): GraphNode {
  return { id: e.id ?? '', label: e.name ?? e.id ?? '', type: e.type ?? '', kind: 'entity', expanded: false };
}

function shortDoc(id: string) {
  return id.length > 14 ? `${id.slice(0, 12)}…` : id;
}

const titles = new Map<string, Promise<string>>();

/**
 * A document's title for its node, looked up once per document and key (another key is another tenant). A lookup
 * that failed (a restart, a 429) is not kept: the next expansion asks again instead of showing the id for good.
 */
function titleOf(documentId: string): Promise<string> {
  const key = `${keyInUse()}\u0000${documentId}`;
  if (!titles.has(key)) {
    titles.set(key, ok(api.GET('/v1/documents/{id}', { params: { path: { id: documentId } } }))
      .then((d) => d.document?.title || shortDoc(documentId)).catch(() => {
        titles.delete(key);
        return shortDoc(documentId);
      }));
  }
  return titles.get(key)!;
}

/** Bumped by every new pick: an answer that arrives after a newer pick belongs to a graph no longer shown. */
let generation = 0;
/** Bumped by every search by name: an answer that arrives after a newer search's is for a name no longer asked. */
let finding = 0;

async function expand(id: string, dispatch: (a: Action) => void, asKey: string, reset = false) {
  const mine = reset ? ++generation : generation;
  const n = await ok(api.GET('/v1/graph/entities/{id}/neighbours', { params: { path: { id },
    query: { limit: 30 } } }));
  if (mine !== generation) return;
  const { nodes, edges } = fromNeighbourhood(n);
  const named = await Promise.all(nodes.map(async (node) => (node.kind === 'document'
    ? { ...node, label: `${await titleOf(node.id.slice(4))} (document)` } : node)));
  if (mine !== generation) return;
  dispatch({ type: 'graphMerge', nodes: named, edges, expanded: id, reset, asKey });
}

/** Whether the server has an entity graph to explore: the RDF store serves the explorer when the graph is off. */
export function explorerOn(modalities: string[]): boolean {
  return modalities.includes('graph') || modalities.includes('rdf');
}

export function GraphTab({ state, dispatch, config }: TabProps) {
  const g = state.graph;
  const [found, setFound] = useState<FoundEntity[] | null>(null);
  const [error, setError] = useState('');
  const enabled = !config || explorerOn(config.modalities ?? []);

  const find = async () => {
    const mine = ++finding;
    setError('');
    try {
      const r = await ok(api.GET('/v1/graph/entities', { params: { query: { q: g.query, limit: 20 } } }));
      if (mine === finding) setFound(r.entities ?? []);
    } catch (e) {
      if (mine === finding) setError(message(e));
    }
  };
  const open = (id: string, reset = false) => expand(id, dispatch, state.apiKey, reset)
    .catch((e) => setError(message(e)));

  if (!enabled) {
    return (
      <section aria-labelledby="graph-title">
        <h2 id="graph-title">Graph</h2>
        <p className="empty">The graph is off on this server: entities and relations are not extracted. Start it
          with <code>POLYRAG_GRAPH_ENABLED=true</code> and re-index to draw them here.</p>
      </section>
    );
  }
  const selected = g.nodes.find((n) => n.id === g.selected);
  const relations = g.edges.filter((e) => e.source === g.selected || e.target === g.selected);
  return (
    <section aria-labelledby="graph-title" className="graph">
      <h2 id="graph-title" className="sr-only">Graph</h2>
      <form className="querybar" role="search" onSubmit={(e) => { e.preventDefault(); void find(); }}>
        <label htmlFor="entity-query" className="sr-only">Entity name</label>
        <input id="entity-query" type="search" value={g.query} placeholder="Find an entity by name…"
          onChange={(e) => dispatch({ type: 'graphQuery', query: e.target.value })} />
        <button type="submit" className="primary" disabled={!g.query.trim()}>Find</button>
      </form>
      {error ? <p role="alert" className="error">{error}</p> : null}
      <div className="graph-layout">
        <aside className="card">
          {found && found.length === 0 ? <p className="empty">No entity matches "{g.query}".</p> : null}
          {found && found.length > 0 ? (
            <ul className="entities">{found.map((e) => (
              <li key={e.id}><button type="button" className="link" onClick={() => void open(e.id ?? '', true)}>
                {e.name}</button> <span className="muted">{e.type ? `${e.type} · ` : ''}{plural(e.mentions, 'mention')}</span></li>))}</ul>
          ) : null}
          {selected ? (
            <div className="relations">
              <h3>{selected.label} <span className="muted">{selected.type}</span></h3>
              <ul>{relations.map((r) => {
                const other = r.source === selected.id ? r.target : r.source;
                const node = g.nodes.find((n) => n.id === other);
                return (
                  <li key={r.id}>{r.source === selected.id ? '→' : '←'} <em>{r.label}</em>{' '}
                    {node?.kind === 'entity' ? <button type="button" className="link"
                      onClick={() => void open(other)}>{node.label}</button> : <span className="mono">{node?.label}</span>}
                  </li>);
              })}</ul>
            </div>
          ) : null}
        </aside>
        <GraphCanvas nodes={g.nodes} edges={g.edges} selected={g.selected}
          onPick={(id) => { dispatch({ type: 'graphSelect', id }); void open(id); }} />
      </div>
    </section>
  );
}

function GraphCanvas({ nodes, edges, selected, onPick }: { nodes: GraphNode[]; edges: GraphEdge[];
  selected: string; onPick: (id: string) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<cytoscape.Core | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    if (!box.current) return;
    const c = cytoscape({
      container: box.current,
      style: graphStyle(box.current),
    });
    // The colours follow the theme: restyled when <html data-theme> changes.
    const restyle = new MutationObserver(() => { if (box.current) c.style(graphStyle(box.current)); });
    restyle.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    c.on('tap', 'node[kind = "entity"]', (e) => pick.current(e.target.id()));
    cy.current = c;
    return () => {
      restyle.disconnect();
      c.destroy();
      cy.current = null;
    };
  }, []);

  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    const ids = new Set(nodes.map((n) => n.id));
    c.batch(() => {
      c.elements().forEach((el) => { if (!ids.has(el.id()) && el.isNode()) el.remove(); });
      for (const n of nodes) {
        const el = c.getElementById(n.id);
        if (el.empty()) c.add({ group: 'nodes', data: { ...n } });
        else el.data({ ...n });
      }
      for (const e of edges) {
        if (c.getElementById(e.id).empty() && ids.has(e.source) && ids.has(e.target)) {
          c.add({ group: 'edges', data: { ...e } });
        }
      }
    });
    c.$(':selected').unselect();
    if (selected) c.getElementById(selected).select();
    c.layout({ name: 'cose', animate: false, randomize: false, nodeDimensionsIncludeLabels: true } as
      cytoscape.LayoutOptions).run();
    c.fit(undefined, 30);
  }, [nodes, edges, selected]);

  return (
    <div className="canvas card">
      {nodes.length === 0 ? <p className="empty overlay">Find an entity, then pick it to draw its neighbourhood;
        click a node to expand it.</p> : null}
      <div ref={box} className="cy" role="img" aria-label={`Graph of ${nodes.length} nodes and ${edges.length}
        relations`} data-nodes={nodes.length} data-edges={edges.length}
        data-expanded={nodes.filter((n) => n.kind === 'entity' && n.expanded).length} />
    </div>
  );
}

/** The graph's look, its colours read from the theme's custom properties (styles.css). */
function graphStyle(el: Element): cytoscape.StylesheetJson {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const edge = v('--graph-edge', '#b6c2cf');
  return [
    { selector: 'node', style: { label: 'data(label)', 'font-size': 11, 'text-valign': 'bottom',
      'text-margin-y': 4, color: v('--fg', '#1f2933'), 'background-color': v('--graph-node', '#3b6fd8'), width: 22,
      height: 22 } },
    { selector: 'node[kind = "document"]', style: { shape: 'round-rectangle',
      'background-color': v('--graph-document', '#9aa5b1'), width: 16, height: 16 } },
    { selector: 'node[?expanded]', style: { 'border-width': 2, 'border-color': v('--graph-expanded', '#1d3f8a') } },
    { selector: 'node:selected', style: { 'background-color': v('--graph-selected', '#d9480f') } },
    { selector: 'edge', style: { label: 'data(label)', 'font-size': 9, color: v('--muted', '#52606d'), width: 1.5,
      'line-color': edge, 'target-arrow-color': edge, 'target-arrow-shape': 'triangle', 'curve-style': 'bezier',
      'text-rotation': 'autorotate' } },
    { selector: 'edge[label = "stated in"]', style: { 'line-style': 'dashed', 'target-arrow-shape': 'none' } },
  ];
}
