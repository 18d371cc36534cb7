/**
 * A Swagger UI plugin for /docs (DESIGN §20), served as the page's own script: it fills what a
 * document can't know ahead, the ids of the reader's records, from the answers the reader has seen.
 *
 * - After every answer executed on the page, each id in it (`ent_…`, `prod_…`: our ids have a
 *   prefix) is remembered, per prefix: the first of its kind in the answer, so a created record's
 *   own `id`, or a list's first item. The newest answer wins: the record just created is the one
 *   the next operations act on, and an operation that destroys (revoke, delete) comes after the
 *   others of its path in the page's order.
 * - When an operation is opened, each of its path parameters that takes one of our ids (its pattern
 *   starts with the prefix) is set to the remembered id of that prefix, so "Try it out" shows it.
 * - A license key (`key`, five groups of five) an answer showed replaces the document's made-up
 *   example key in the bodies the page pre-fills (the license app routes, POST /v1/licenses/…).
 *
 * Plain browser JavaScript (it runs in the page, not in Node): it wraps SwaggerUIBundle before
 * Nest's init script calls it on load, and adds itself to the plugins.
 */
export const SWAGGER_UI_FILL_PLUGIN_SCRIPT = String.raw`
(function () {
  'use strict';
  var ID = /^([a-z]+)_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
  var LICENSE_KEY = /^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/;
  var PREFIX_OF_PATTERN = /^\^([a-z]+)_/;
  var remembered = { ids: {}, licenseKey: null };

  /** The ids of an answer, the first of each prefix (depth first, in the answer's own order). */
  function collect(value, found, key) {
    if (typeof value === 'string') {
      var match = ID.exec(value);
      if (match && !(match[1] in found.ids)) found.ids[match[1]] = value;
      if (key === 'key' && LICENSE_KEY.test(value) && !found.licenseKey) found.licenseKey = value;
    } else if (Array.isArray(value)) {
      value.forEach(function (item) { collect(item, found); });
    } else if (value && typeof value === 'object') {
      Object.keys(value).forEach(function (name) { collect(value[name], found, name); });
    }
  }

  function answerOf(response) {
    if (response && response.body && typeof response.body === 'object') return response.body;
    try { return JSON.parse(response && response.text); } catch (error) { return null; }
  }

  /** The made-up license keys of the document's examples (the components' key properties). */
  function exampleLicenseKeys(system) {
    var schemas = system.specSelectors.specJson().getIn(['components', 'schemas']);
    var keys = [];
    if (schemas) schemas.forEach(function (schema) {
      var example = schema.getIn(['properties', 'key', 'example']);
      if (typeof example === 'string' && LICENSE_KEY.test(example) && keys.indexOf(example) < 0) keys.push(example);
    });
    return keys;
  }

  /** Fills one operation's id path parameters as it is opened: only then, so an answer re-renders nothing. */
  function fillOperation(system, operationId) {
    var paths = system.specSelectors.specJson().get('paths');
    if (!paths) return;
    paths.forEach(function (item, path) {
      item.forEach(function (operation, method) {
        if (!operation || !operation.get || operation.get('operationId') !== operationId) return;
        (operation.get('parameters') || []).forEach(function (parameter) {
          var match = parameter.get('in') === 'path' && PREFIX_OF_PATTERN.exec(parameter.getIn(['schema', 'pattern']) || '');
          if (match && remembered.ids[match[1]]) system.specActions.changeParam([path, method], parameter.get('name'), 'path', remembered.ids[match[1]]);
        });
      });
    });
  }

  function FillFromAnswers() {
    return {
      statePlugins: {
        spec: {
          wrapActions: {
            setResponse: function (original) {
              return function (path, method, response) {
                var found = { ids: {}, licenseKey: null };
                if (response && response.status >= 200 && response.status < 300) collect(answerOf(response), found);
                Object.keys(found.ids).forEach(function (prefix) { remembered.ids[prefix] = found.ids[prefix]; });
                if (found.licenseKey) remembered.licenseKey = found.licenseKey;
                return original(path, method, response);
              };
            },
          },
        },
        layout: {
          wrapActions: {
            // show(['operations', tag, operationId], true): an operation is opened.
            show: function (original, system) {
              return function (thing, shown) {
                var key = thing && thing.toJS ? thing.toJS() : thing;
                if (Array.isArray(key) && key[0] === 'operations' && key.length === 3 && shown !== false) fillOperation(system, key[2]);
                return original(thing, shown);
              };
            },
          },
        },
        oas3: {
          wrapActions: {
            // The example body as the page pre-fills it: a made-up license key becomes the one an answer showed.
            setRequestBodyValue: function (original, system) {
              return function (payload) {
                if (remembered.licenseKey && payload && typeof payload.value === 'string') {
                  var value = payload.value;
                  exampleLicenseKeys(system).forEach(function (example) { value = value.split(example).join(remembered.licenseKey); });
                  if (value !== payload.value) payload = Object.assign({}, payload, { value: value });
                }
                return original(payload);
              };
            },
          },
        },
      },
    };
  }

  var original = window.SwaggerUIBundle;
  if (!original) return;
  function withFilling(options) {
    options.plugins = (options.plugins || []).concat([FillFromAnswers]);
    return original(options);
  }
  Object.keys(original).forEach(function (name) { withFilling[name] = original[name]; });
  window.SwaggerUIBundle = withFilling;
})();
`;
