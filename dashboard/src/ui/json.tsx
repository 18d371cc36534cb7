import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useModePath } from '../lib/mode';
import { recordPath, RECORD_ID_IN_TEXT } from '../lib/record-path';
import { CopyButton } from './copy';

/** The text with each of our ids in it a link to its record. */
function WithRecordLinks({ text }: { text: string }) {
  const path = useModePath();
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(RECORD_ID_IN_TEXT)) {
    const target = recordPath(match[0]);
    if (!target) continue;
    parts.push(text.slice(last, match.index), <Link key={match.index} to={path(target)}>{match[0]}</Link>);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/** A JSON value, indented and copyable; with `linkIds`, every id in it links to its record (an event's payload). */
export function JsonView({ value, label, linkIds = false }: { value: unknown; label: string; linkIds?: boolean }) {
  const text = JSON.stringify(value, null, 2);
  return (
    <figure className="json">
      <figcaption>
        <span>{label}</span> <CopyButton text={text} what={label} />
      </figcaption>
      <pre tabIndex={0} aria-label={label}>
        <code>{linkIds ? <WithRecordLinks text={text} /> : text}</code>
      </pre>
    </figure>
  );
}
