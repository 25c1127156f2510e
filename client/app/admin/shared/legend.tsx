/** The colour key of a console chart (docs/operators.md): one swatch class and label per series. */
export function Legend({ keys }: { keys: readonly (readonly [swatch: string, label: string])[] }) {
  return (
    <ul className="legend">
      {keys.map(([swatch, label]) => (
        <li key={swatch}>
          <span className={`swatch ${swatch}`} aria-hidden="true" />
          {label}
        </li>
      ))}
    </ul>
  );
}
