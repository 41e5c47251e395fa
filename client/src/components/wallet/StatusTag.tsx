import './records.css';

/** A record's state as a coloured tag; the text carries the meaning, colour only helps. */
export type Tone = 'pending' | 'good' | 'bad';

export function StatusTag({ tone, text, testId }: { tone: Tone; text: string; testId?: string }) {
  return (
    <span className={`status-tag status-tag--${tone}`} data-testid={testId} data-tone={tone}>
      {text}
    </span>
  );
}
