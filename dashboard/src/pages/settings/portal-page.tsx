import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type CSSProperties, type FormEvent } from 'react';
import { unwrap } from '../../api/client';
import { useApi, useMode } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { FormError, SubmitButton, TextField, useFormErrors } from '../../ui/fields';
import { PageHeader, Section } from '../../ui/page';
import { ErrorMessage, Loading } from '../../ui/states';

interface Branding {
  display_name: string;
  accent_color: string;
  logo_url: string;
  support_url: string;
}

const FIELDS = ['display_name', 'accent_color', 'logo_url', 'support_url'] as const;
const DEFAULT_ACCENT = '#1f5fbf';
const COLOR = /^#[0-9a-fA-F]{6}$/;

/** Dark or light text on the accent, as the portal picks it (portal/src/main.ts). */
function textOn(accent: string): string {
  const [red, green, blue] = [1, 3, 5].map((start) => parseInt(accent.slice(start, start + 2), 16) / 255).map((channel) => (channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4));
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.35 ? '#111111' : '#ffffff';
}

/** The customer portal's branding in this mode (DESIGN §19), with a preview of its header. */
export function PortalPage() {
  const api = useApi();
  const mode = useMode();
  const can = useCan();
  const settings = useQuery({ queryKey: [mode, 'portal-settings'], queryFn: async () => unwrap(await api.GET('/v1/portal-settings')) });
  const [draft, setDraft] = useState<Branding>({ display_name: '', accent_color: '', logo_url: '', support_url: '' });
  useEffect(() => {
    if (settings.data) setDraft({ display_name: settings.data.display_name ?? '', accent_color: settings.data.accent_color ?? '', logo_url: settings.data.logo_url ?? '', support_url: settings.data.support_url ?? '' });
  }, [settings.data]);
  const save = useWrite({
    mutationFn: async (body: Record<(typeof FIELDS)[number], string | null>) => unwrap(await api.PATCH('/v1/portal-settings', { body })),
    invalidates: [['portal-settings']],
  });
  const errors = useFormErrors(FIELDS, save.error);
  if (settings.isPending) return <Loading what="the portal's branding" />;
  if (settings.error) return <ErrorMessage error={settings.error} />;
  const editable = can('portal_settings:write');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const accent = draft.accent_color.trim();
    if (!errors.accept(accent === '' || COLOR.test(accent) ? {} : { accent_color: 'A colour as #rrggbb, like #0a7d45.' })) return;
    const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
    save.run({ display_name: orNull(draft.display_name), accent_color: orNull(accent), logo_url: orNull(draft.logo_url), support_url: orNull(draft.support_url) });
  };
  const accent = COLOR.test(draft.accent_color.trim()) ? draft.accent_color.trim() : DEFAULT_ACCENT;
  const previewStyle: CSSProperties = { background: accent, color: textOn(accent), border: `1px solid ${accent}` };
  const field = (name: keyof Branding) => ({
    name,
    value: draft[name],
    disabled: !editable,
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });
  return (
    <>
      <PageHeader title="Customer portal" description="The page your customers reach through a portal link: their purchases, downloads and license keys. Empty fields use the defaults." />
      <Section title="Branding">
        <form className="stack form" onSubmit={submit} aria-label="Portal branding" noValidate>
          <TextField label="Display name" optional hint="Default: your merchant name." maxLength={100} error={errors.fields.display_name} {...field('display_name')} />
          <TextField label="Accent colour" optional hint="#rrggbb, for buttons and links." maxLength={7} error={errors.fields.accent_color} {...field('accent_color')} />
          <TextField label="Logo URL" optional type="url" hint="An https image." error={errors.fields.logo_url} {...field('logo_url')} />
          <TextField label="Support page URL" optional type="url" hint="An https page, linked as Help." error={errors.fields.support_url} {...field('support_url')} />
          <FormError message={errors.form} />
          {editable && (
            <SubmitButton pending={save.isPending} pendingLabel="Saving…">
              Save
            </SubmitButton>
          )}
          {save.isSuccess && <p role="status">Saved.</p>}
        </form>
      </Section>
      <Section title="Preview">
        <div className="portal-preview" data-testid="portal-preview" aria-label="Preview of the portal's header">
          <p>
            <strong>{draft.display_name.trim() || 'Your merchant name'}</strong>
          </p>
          <p>
            <span className="button small" style={previewStyle}>
              Download
            </span>
          </p>
        </div>
      </Section>
    </>
  );
}
