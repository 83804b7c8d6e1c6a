// The daily usage bar chart, drawn by chart.js on a canvas. Only the parts a bar chart needs are
// registered (bar controller and element, category and linear scales, tooltip, legend), so the
// bundle carries no other chart type. chart.js draws with canvas calls and sets the canvas's size
// through element.style (CSSOM), which a CSP without 'unsafe-inline' allows; it injects no
// stylesheet and evaluates no strings.
//
// A canvas says nothing to a screen reader: it is an image named by a summary, and the same numbers
// are in a table right below it.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/** A day's counts; null for a day no longer in the request log (drawn as a gap). */
export interface DailyPoint {
  date: string;
  api: number | null;
  ai: number | null;
}

const API_COLOUR = '#1f5fbf';
const AI_COLOUR = '#b35900';

export function DailyUsageChart({ points, label }: { points: DailyPoint[]; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const node = canvas.current;
    if (!node) return undefined;
    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const chart = new Chart(node, {
      type: 'bar',
      data: {
        labels: points.map((p) => p.date.slice(8)),
        datasets: [
          { label: 'API requests', data: points.map((p) => p.api), backgroundColor: API_COLOUR },
          { label: 'AI requests', data: points.map((p) => p.ai), backgroundColor: AI_COLOUR },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: reducedMotion ? false : { duration: 300 },
        scales: {
          x: { title: { display: true, text: 'Day of the month', color: '#333' }, ticks: { color: '#333' } },
          y: { beginAtZero: true, title: { display: true, text: 'Requests', color: '#333' }, ticks: { color: '#333', precision: 0 } },
        },
        plugins: { legend: { labels: { color: '#1a1a1a' } } },
      },
    });
    return () => chart.destroy();
  }, [points]);
  return (
    <div className="chart-box">
      <canvas ref={canvas} role="img" aria-label={label} data-testid="daily-usage-chart">
        {label}
      </canvas>
    </div>
  );
}
