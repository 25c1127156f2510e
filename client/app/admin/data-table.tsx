import type { ReactNode } from 'react';

/** A console table (docs/operators.md): its column headings, its rows, scrolling sideways inside its panel on a phone. */
export function DataTable({ className, head, children }: { className: string; head: string[]; children: ReactNode }) {
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
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
