// A widget's settings built from its schema keys.
import { settings, epsSlider, keyInput, keySelect } from './controls.js';

/**
 * keyControls(ctx, schema, refresh, fields, more) is a widget's settings
 * (controls.js settings): the controls of fields in a row, at most four, and
 * those of more under "More settings", returned as {controls, more, els,
 * [key]: control}. A field [key, label, opts] is the log-scale ε slider for
 * key eps or ea, a select for an enum key (opts.text(value) is what a value
 * shows; opts.wide), and a number box for any other key (opts go to
 * keyInput); each change is stored with ctx.set, then refresh runs. A field
 * that is a control already built ({el}) is placed as it is.
 */
export function keyControls(ctx, schema, refresh, fields, more = []) {
  const made = {};
  const build = (f) => {
    if (!Array.isArray(f)) return f;
    const [key, label, { text = String, ...opts } = {}] = f;
    return (made[key] = key === 'eps' || key === 'ea' ? epsSlider(ctx, schema, label, refresh, key)
      : schema[key].type === 'enum' ? keySelect(ctx, schema, key, label, text, refresh, opts)
        : keyInput(ctx, schema, key, label, refresh, opts));
  };
  return Object.assign(made, settings(ctx, fields.map(build), more.map(build)));
}
