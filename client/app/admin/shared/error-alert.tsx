/**
 * A console panel's failure, said where the panel stands (docs/operators.md): an alert a screen
 * reader announces, or nothing when there is none.
 */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}
