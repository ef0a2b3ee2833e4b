import type { ComponentChildren } from 'preact';
import { useText } from '../i18n';

/** The filters of a listing, applied together on the server when the form is sent (docs/listings.md). */
export function ListingFilters({ onApply, children }: { onApply: () => void; children: ComponentChildren }) {
  const { t } = useText();
  const submit = (event: Event) => {
    event.preventDefault();
    onApply();
  };
  return (
    <form class="filters" onSubmit={submit} aria-label={t('filters')}>
      {children}
      <button type="submit">{t('apply')}</button>
    </form>
  );
}

/** Keeps the rows with one value of a column; the first choice, all, keeps every row. */
export function ChoiceFilter<Choice extends string>({
  label,
  value,
  choices,
  text = (choice) => choice,
  onChange,
}: {
  label: string;
  value: string;
  choices: readonly Choice[];
  /** How a choice reads, when not as its value. */
  text?: (choice: Choice) => string;
  onChange: (value: string) => void;
}) {
  const { t } = useText();
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{t('all')}</option>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {text(choice)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Keeps the rows whose column contains the text. */
export function ContainsFilter({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <label>
      {label}
      <input value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    </label>
  );
}
