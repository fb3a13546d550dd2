/**
 * A plain textarea with a line-number gutter and a highlight layer under
 * the text: lines with a validation problem are marked, the exact column
 * gets a caret, and clicking a problem puts the cursor there. No editor
 * library: the page stays small and needs nothing inline (CSP).
 */
import { useRef } from 'preact/hooks';

export interface Problem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export function ScenarioEditor(props: { value: string; problems: Problem[]; onInput(text: string): void }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const layer = useRef<HTMLPreElement>(null);
  const lines = props.value.split('\n');
  const byLine = new Map<number, Problem[]>();
  for (const p of props.problems) if (p.line) byLine.set(p.line, [...(byLine.get(p.line) ?? []), p]);

  const syncScroll = () => {
    const t = area.current!;
    if (gutter.current) gutter.current.scrollTop = t.scrollTop;
    if (layer.current) {
      layer.current.scrollTop = t.scrollTop;
      layer.current.scrollLeft = t.scrollLeft;
    }
  };

  /** moves the cursor to line:column (1-based) and scrolls it into view */
  const goTo = (line: number, column = 1) => {
    const t = area.current!;
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
    offset += Math.max(0, column - 1);
    t.focus();
    t.setSelectionRange(offset, offset);
    const lineHeight = parseFloat(getComputedStyle(t).lineHeight) || 18;
    t.scrollTop = Math.max(0, (line - 3) * lineHeight);
    syncScroll();
  };

  return (
    <div class="editor-wrap">
      <div class="editor">
        <div class="gutter" ref={gutter} aria-hidden="true">
          {lines.map((_, i) => (
            <div key={i} class={byLine.has(i + 1) ? 'bad' : ''}>
              {i + 1}
            </div>
          ))}
        </div>
        <div class="code">
          <pre class="layer" ref={layer} aria-hidden="true">
            {lines.map((text, i) => {
              const problems = byLine.get(i + 1);
              if (!problems) return <div key={i}>{text || ' '}</div>;
              const col = Math.max(1, problems[0]!.column ?? 1);
              return (
                <div key={i} class="bad" title={problems.map((p) => p.message).join('\n')}>
                  {text.slice(0, col - 1)}
                  <span class="mark">{text.slice(col - 1) || ' '}</span>
                </div>
              );
            })}
          </pre>
          <textarea
            ref={area}
            class="input"
            spellcheck={false}
            wrap="off"
            aria-label="scenario (YAML or JSON)"
            data-testid="scenario-text"
            value={props.value}
            onInput={(e) => props.onInput((e.target as HTMLTextAreaElement).value)}
            onScroll={syncScroll}
          />
        </div>
      </div>
      {props.problems.length > 0 && (
        <ul class="problems" data-testid="scenario-problems">
          {props.problems.map((p, i) => (
            <li key={i}>
              <button type="button" class="link" onClick={() => p.line && goTo(p.line, p.column)}>
                {p.line ? `${p.line}:${p.column ?? 1}` : '–'}
              </button>{' '}
              <code>{p.path}</code> {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
