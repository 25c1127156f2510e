/** The console's tables (docs/operators.md): rows under their headings, or a sentence when there are none. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable } from '../../client/app/admin/shared/data-table.tsx';

describe('a console table', () => {
  it('shows its headings and rows', () => {
    const html = renderToStaticMarkup(
      <DataTable
        className="links-table"
        head={['Link', 'Channel']}
        empty="No links yet"
        rows={[
          <tr key="a">
            <td>/s/spring</td>
            <td>spring-sale</td>
          </tr>,
        ]}
      />,
    );
    expect(html).toContain('<th scope="col">Link</th><th scope="col">Channel</th>');
    // Each cell names its column: a phone shows the row as a card, each value beside its heading.
    expect(html).toContain('<td data-label="Link">/s/spring</td><td data-label="Channel">spring-sale</td>');
    expect(html).not.toContain('No links yet');
  });

  it('says there is nothing rather than showing bare headings', () => {
    const html = renderToStaticMarkup(
      <DataTable className="links-table" head={['Link', 'Channel']} empty="No links yet" rows={[]} />,
    );
    expect(html).toBe('<p class="empty">No links yet</p>');
  });
});
