import type { ReactNode } from 'react';

/**
 * A console table (docs/operators.md): its column headings and rows, scrolling sideways inside its
 * panel on a phone; without rows, the sentence `empty` in its place rather than bare headings.
 */
export function DataTable({
  className,
  head,
  rows,
  empty,
}: {
  className: string;
  head: string[];
  rows: ReactNode[];
  empty: string;
}) {
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  return (
    <div className="table-scroll">
      <table className={className}>
        <thead>
          <tr>
            {head.map((label) => (
              <th key={label} scope="col">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
    </div>
  );
}
