// @ts-check
// Writes a small two-page PDF with real text objects and a correct xref table (a test fixture).
import { writeFileSync } from 'node:fs';

const pages = ['Hello from page one', 'Second page says goodbye'];
const objects = [];
objects.push('<< /Type /Catalog /Pages 2 0 R >>');
const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
pages.forEach((text, i) => {
  objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
  const stream = `BT /F1 18 Tf 20 100 Td (${text}) Tj ET`;
  objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
});
let out = '%PDF-1.4\n';
/** @type {number[]} */
const offsets = [];
objects.forEach((body, i) => {
  offsets.push(out.length);
  out += `${i + 1} 0 obj\n${body}\nendobj\n`;
});
const xref = out.length;
out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
writeFileSync(process.argv[2], out, 'latin1');
