/**
 * The measured score and its three dimensions over time, on a uPlot chart.
 * Consistency needs the target's invariant checks, so they run every fifth
 * poll and the last result is carried between them. The chart starts from the
 * server's history (GET /arena/score/history), so a reload goes on where the
 * last page was rather than from an empty chart.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Api } from '../api.js';
import type { ScoreHistory, ScoreSnapshot } from '../types.js';
import { formatNumber } from '../format.js';

const MAX_POINTS = 900;
const SERIES = [
  { label: 'score', stroke: '#e8eaf0', width: 2.5 },
  { label: 'availability', stroke: '#4cc38a', width: 1.5 },
  { label: 'recovery', stroke: '#5aa9ff', width: 1.5 },
  { label: 'consistency', stroke: '#f5a524', width: 1.5 },
] as const;

type Series = [number[], Array<number | null>, Array<number | null>, Array<number | null>, Array<number | null>];

export function ScorePanel(props: { api: Api; onSnapshot?: (s: ScoreSnapshot) => void }) {
  const onSnapshot = useRef(props.onSnapshot);
  onSnapshot.current = props.onSnapshot;
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const data = useRef<Series>([[], [], [], [], []]);
  const [latest, setLatest] = useState<ScoreSnapshot | undefined>(undefined);
  /** how many points the chart holds and when the oldest was read (epoch ms): what a test can see of a canvas */
  const [extent, setExtent] = useState<{ points: number; firstMs?: number }>({ points: 0 });
  const draw = () => {
    const d = data.current;
    plot.current?.setData(d as uPlot.AlignedData);
    setExtent({ points: d[0].length, ...(d[0].length > 0 ? { firstMs: Math.round(d[0][0]! * 1000) } : {}) });
  };

  useEffect(() => {
    const el = box.current!;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: 220,
      scales: { y: { range: [0, 100] } },
      axes: [
        { stroke: '#9aa3b2', grid: { stroke: '#2a3040' }, ticks: { stroke: '#2a3040' } },
        { stroke: '#9aa3b2', grid: { stroke: '#2a3040' }, ticks: { stroke: '#2a3040' }, size: 40 },
      ],
      series: [{}, ...SERIES.map((s) => ({ label: s.label, stroke: s.stroke, width: s.width, spanGaps: false }))],
      legend: { show: true },
    };
    plot.current = new uPlot(opts, data.current as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() =>
      plot.current?.setSize({ width: Math.max(200, el.clientWidth), height: 220 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
    };
  }, []);

  useEffect(() => {
    let polls = 0;
    let consistency: number | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const seed = async () => {
      try {
        const history = await props.api.get<ScoreHistory>('/arena/score/history');
        if (stopped) return;
        const d = data.current;
        for (const p of history.points.slice(-MAX_POINTS)) {
          d[0].push(p.at_ms / 1000);
          d[1].push(p.score);
          d[2].push(p.availability);
          d[3].push(p.recovery);
          d[4].push(p.consistency);
          if (p.consistency !== null) consistency = p.consistency;
        }
        draw();
      } catch {
        // an older server without the history: the chart starts from now, as it used to
      }
    };
    const poll = async () => {
      const withChecks = polls++ % 5 === 0;
      try {
        const s = await props.api.get<ScoreSnapshot>(`/arena/score${withChecks ? '?checks=true' : ''}`);
        if (stopped) return;
        if (s.consistency !== null) consistency = s.consistency;
        const point: ScoreSnapshot = { ...s, consistency: s.consistency ?? consistency };
        const d = data.current;
        d[0].push(Date.now() / 1000);
        d[1].push(point.score);
        d[2].push(point.availability);
        d[3].push(point.recovery);
        d[4].push(point.consistency);
        if (d[0].length > MAX_POINTS) for (const column of d) column.shift();
        draw();
        setLatest(point);
        onSnapshot.current?.(s);
      } catch {
        // the connection pill and the other panels say why; the chart just keeps its last points
      }
    };
    void seed().then(() => {
      if (stopped) return;
      void poll();
      timer = setInterval(() => void poll(), 1000);
    });
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [props.api]);

  return (
    <section class="card wide" aria-labelledby="score-h">
      <h2 id="score-h">Resilience score (measured since the server started)</h2>
      <div class="readouts" data-testid="live-score">
        <span class="big">
          {formatNumber(latest?.score)} <small>{latest?.grade ?? ''}</small>
        </span>
        <span>availability {formatNumber(latest?.availability)}</span>
        <span>recovery {formatNumber(latest?.recovery)}</span>
        <span>consistency {formatNumber(latest?.consistency)}</span>
      </div>
      <div
        class="chart"
        ref={box}
        data-testid="score-chart"
        data-points={extent.points}
        data-first-ms={extent.firstMs}
      />
    </section>
  );
}
