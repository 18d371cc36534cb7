import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { failure, http, ok, page, product, resetSent, sentTo, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { NewProductPage } from './new-product-page';

const EBOOK = product({ id: 'prod_01ebookaaaaaaaaaaaaaaaaaaa', name: 'Ebook', store_product_id: 'sku_ebook' });
const AUDIO = product({ id: 'prod_01audioaaaaaaaaaaaaaaaaaa', name: 'Audiobook' });

beforeEach(() => {
  resetSent();
  server.use(
    http.get('*/v1/products', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search') ?? '';
      return page([EBOOK, AUDIO].filter((candidate) => candidate.name.toLowerCase().includes(search.toLowerCase())));
    }),
  );
});

describe('the new product form', () => {
  it('creates a time-limited URL bundle with store ids and variants, once, in the page’s mode', async () => {
    let created = 0;
    server.use(
      http.post('*/v1/products', async () => {
        created += 1;
        // Slow enough for a second click to land while the first request runs.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return ok(product({ id: 'prod_01newaaaaaaaaaaaaaaaaaaaaa', name: 'Course bundle' }), 201);
      }),
    );
    const { user, router } = renderAt('/live/products/new', <NewProductPage />);
    await user.type(screen.getByLabelText('Name'), 'Course bundle');
    await user.selectOptions(screen.getByLabelText('What a grant gives'), 'time_limited');
    await user.clear(screen.getByLabelText('Days of access'));
    await user.type(screen.getByLabelText('Days of access'), '90');
    await user.click(screen.getByRole('radio', { name: /A link/ }));
    await user.type(screen.getByLabelText('Access URL'), 'https://course.example.com/enroll');
    await user.click(screen.getByText('Store ids, variants, bundle contents and metadata'));
    await user.type(screen.getByLabelText(/Store product id/), 'sku_course');
    await user.type(screen.getByLabelText(/Store variant ids/), 'sku_course_eur{enter}sku_course_usd');
    // The bundle picker asks the server, which searches every product, not a first page of them.
    await user.type(screen.getByRole('combobox', { name: 'Bundle contents' }), 'audio');
    await user.click(await screen.findByRole('option', { name: /Audiobook/ }));
    await user.type(screen.getByLabelText(/Metadata/), '{{"level": "beginner"}');
    await user.dblClick(screen.getByRole('button', { name: 'Create product' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/live/products/prod_01newaaaaaaaaaaaaaaaaaaaaa'));
    expect(created).toBe(1);
    const [request] = sentTo('POST', '/v1/products');
    expect(request.headers.get('Eh-Mode')).toBe('live');
    expect(request.headers.get('Idempotency-Key')).toMatch(/^dashboard_/);
    expect(request.body).toEqual({
      name: 'Course bundle',
      entitlement_type: 'time_limited',
      description: '',
      access_duration_days: 90,
      usage_limit: null,
      store_product_id: 'sku_course',
      store_variant_ids: ['sku_course_eur', 'sku_course_usd'],
      fulfillment_config: { delivery_method: 'URL', access_url: 'https://course.example.com/enroll' },
      included_product_ids: [AUDIO.id],
      metadata: { level: 'beginner' },
      license: null,
    });
    expect(sentTo('GET', '/v1/products').some((sentRequest) => sentRequest.query.get('search') === 'audio')).toBe(true);
  });

  it('creates usage-limited products with instructions', async () => {
    server.use(http.post('*/v1/products', () => ok(product(), 201)));
    const { user } = renderAt('/test/products/new', <NewProductPage />);
    await user.type(screen.getByLabelText('Name'), 'Licence codes');
    await user.selectOptions(screen.getByLabelText('What a grant gives'), 'usage_limited');
    await user.clear(screen.getByLabelText('Uses allowed'));
    await user.type(screen.getByLabelText('Uses allowed'), '5');
    await user.click(screen.getByRole('radio', { name: /Instructions/ }));
    await user.type(screen.getByLabelText('Instructions for the customer'), 'Redeem at example.com/redeem');
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    await waitFor(() => expect(sentTo('POST', '/v1/products')).toHaveLength(1));
    expect(sentTo('POST', '/v1/products')[0].body).toMatchObject({
      entitlement_type: 'usage_limited',
      usage_limit: 5,
      access_duration_days: null,
      fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Redeem at example.com/redeem' },
    });
    expect(sentTo('POST', '/v1/products')[0].headers.get('Eh-Mode')).toBe('test');
  });

  it('creates a product whose grants get license keys: 3 devices per key, floating seats after an hour', async () => {
    server.use(http.post('*/v1/products', () => ok(product({ license: { activation_limit: 3, activation_ttl_seconds: 3600 } }), 201)));
    const { user } = renderAt('/test/products/new', <NewProductPage />);
    await user.type(screen.getByLabelText('Name'), 'Desktop app');
    expect(screen.queryByLabelText(/Devices per key/)).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Issue a license key with each grant' }));
    await user.type(screen.getByLabelText(/Devices per key/), '3');
    await user.type(screen.getByLabelText(/Release a device after/), '3600');
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    await waitFor(() => expect(sentTo('POST', '/v1/products')).toHaveLength(1));
    expect(sentTo('POST', '/v1/products')[0].body).toMatchObject({ name: 'Desktop app', license: { activation_limit: 3, activation_ttl_seconds: 3600 } });
  });

  it('sends an unlimited license when both license fields are left empty, and refuses out-of-range ones before sending', async () => {
    server.use(http.post('*/v1/products', () => ok(product(), 201)));
    const { user } = renderAt('/test/products/new', <NewProductPage />);
    await user.type(screen.getByLabelText('Name'), 'Plugin');
    await user.click(screen.getByRole('checkbox', { name: 'Issue a license key with each grant' }));
    await user.type(screen.getByLabelText(/Devices per key/), '0');
    await user.type(screen.getByLabelText(/Release a device after/), '59');
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    expect(screen.getByLabelText(/Devices per key/)).toHaveAccessibleDescription(/Enter 1 or more\./);
    expect(screen.getByLabelText(/Release a device after/)).toHaveAccessibleDescription(/Enter 60 or more\./);
    expect(sentTo('POST', '/v1/products')).toHaveLength(0);
    await user.clear(screen.getByLabelText(/Devices per key/));
    await user.clear(screen.getByLabelText(/Release a device after/));
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    await waitFor(() => expect(sentTo('POST', '/v1/products')).toHaveLength(1));
    expect(sentTo('POST', '/v1/products')[0].body).toMatchObject({ license: { activation_limit: null, activation_ttl_seconds: null } });
  });

  it('says in plain words what to fix before sending anything', async () => {
    const { user } = renderAt('/test/products/new', <NewProductPage />);
    await user.type(screen.getByLabelText('Name'), '   ');
    await user.selectOptions(screen.getByLabelText('What a grant gives'), 'time_limited');
    await user.clear(screen.getByLabelText('Days of access'));
    await user.type(screen.getByLabelText('Days of access'), '0');
    await user.click(screen.getByRole('radio', { name: /A link/ }));
    await user.type(screen.getByLabelText('Access URL'), 'http://insecure.example.com');
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Give the product a name.');
    expect(screen.getByLabelText('Days of access')).toHaveAccessibleDescription(/Enter 1 or more\./);
    expect(screen.getByLabelText('Access URL')).toHaveAccessibleDescription('Enter a full https:// address.');
    expect(sentTo('POST', '/v1/products')).toHaveLength(0);
  });

  it('shows the API’s error beside its field and keeps what was typed', async () => {
    server.use(http.post('*/v1/products', () => failure(409, 'DUPLICATE_STORE_ID', "Invalid 'store_product_id': another product has store_product_id 'sku_ebook'", 'store_product_id')));
    const { user } = renderAt('/test/products/new', <NewProductPage />);
    await user.type(screen.getByLabelText('Name'), 'Second ebook');
    await user.click(screen.getByText('Store ids, variants, bundle contents and metadata'));
    await user.type(screen.getByLabelText(/Store product id/), 'sku_ebook');
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    const field = await screen.findByLabelText(/Store product id/);
    await waitFor(() => expect(field).toHaveAccessibleDescription(/Another product has store_product_id 'sku_ebook'/));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveValue('sku_ebook');
    expect(screen.getByLabelText('Name')).toHaveValue('Second ebook');
    expect(screen.getByRole('button', { name: 'Create product' })).toBeEnabled();
  });

  it('disables its button while the request runs', async () => {
    let release: () => void = () => undefined;
    server.use(http.post('*/v1/products', () => new Promise((resolve) => (release = () => resolve(ok(product(), 201))))));
    const { user } = renderAt('/test/products/new', <NewProductPage />);
    await user.type(screen.getByLabelText('Name'), 'Slow');
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    const form = screen.getByRole('form', { name: 'New product' });
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Saving…' })).toBeDisabled());
    release();
  });
});
