// axe-core from node_modules, for the browser suites: the script to inject before a page's own
// scripts (an init script is not subject to the page's CSP), and the check every suite runs.
import type { Frame, Page } from 'playwright-core';

export const AXE_PATH = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** axe-core's serious and critical findings on the document of `target` as it is now, one line each. */
export async function seriousAxeFindings(target: Page | Frame): Promise<string[]> {
  return target.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
