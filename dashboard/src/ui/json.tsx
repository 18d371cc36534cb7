import { CopyButton } from './copy';

/** A JSON value, indented and copyable. */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  const text = JSON.stringify(value, null, 2);
  return (
    <figure className="json">
      <figcaption>
        <span>{label}</span> <CopyButton text={text} what={label} />
      </figcaption>
      <pre tabIndex={0} aria-label={label}>
        <code>{text}</code>
      </pre>
    </figure>
  );
}
