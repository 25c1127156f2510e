import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';

/**
 * A row whose cells carry their column's heading (`data-label`): on a phone the table is a list of
 * cards, each cell's heading beside its content (../admin.css), so no column is hidden past the screen's
 * edge.
 */
function labelled(row: ReactNode, head: string[]): ReactNode {
  if (!isValidElement<{ children?: ReactNode }>(row)) return row;
  let column = 0;
  const cells = Children.map(row.props.children, (cell) => {
    if (!isValidElement(cell)) return cell;
    const label = head[column] ?? '';
    column += 1;
    return cloneElement(cell as ReactElement<{ 'data-label'?: string }>, { 'data-label': label });
  });
  return cloneElement(row, {}, cells);
}

/**
 * A console table (docs/operators.md): its column headings and rows, fitting its panel at every width
 * (cells wrap; on a phone each row is a card of labelled cells); without rows, the sentence `empty` in
 * its place rather than bare headings.
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
    <div className="table-fit">
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
        <tbody>{rows.map((row) => labelled(row, head))}</tbody>
      </table>
    </div>
  );
}
