// Go's text/tabwriter, as kube's debug dumps use it (NewWriter(w, minwidth 8, tabwidth 0, padding 1, ' ', 0)):
// cells end at a tab; a column is as wide as its widest cell plus the padding (at least minwidth) over each run
// of consecutive lines that have a cell in it; a line's last cell (not tab-terminated) is not aligned.

export function tabwriter(text: string, minwidth = 8, padding = 1): string {
  const lines = text.split('\n').map((l) => l.split('\t'));
  // The text ends in a newline: Go writes nothing for the empty line after it.
  const last = lines.length - 1;
  const trailingNewline = lines[last]!.length === 1 && lines[last]![0] === '';
  const body = trailingNewline ? lines.slice(0, last) : lines;
  const width = (s: string): number => [...s].length;
  let out = '';
  const writeLines = (from: number, to: number, widths: number[]): void => {
    for (let i = from; i < to; i++) {
      const cells = body[i]!;
      cells.forEach((c, j) => {
        out += c;
        if (j < widths.length && j < cells.length - 1) out += ' '.repeat(Math.max(0, widths[j]! - width(c)));
      });
      if (i < body.length - 1 || trailingNewline) out += '\n';
    }
  };
  const format = (line0: number, line1: number, widths: number[]): void => {
    const column = widths.length;
    for (let t = line0; t < line1; t++) {
      if (column >= body[t]!.length - 1) continue;
      // A run of lines with a cell in this column starts here.
      writeLines(line0, t, widths);
      line0 = t;
      let w = minwidth;
      for (; t < line1; t++) {
        const cells = body[t]!;
        if (column >= cells.length - 1) break;
        w = Math.max(w, width(cells[column]!) + padding);
      }
      format(line0, t, [...widths, w]);
      line0 = t;
    }
    writeLines(line0, line1, widths);
  };
  format(0, body.length, []);
  return out;
}
