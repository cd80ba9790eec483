// A widget's row of controls built from its schema keys.
import { controlsBox, epsSlider, keyInput, keySelect } from './controls.js';

/**
 * keyControls(ctx, schema, refresh, fields) is a widget's row of controls,
 * one for each field in order, returned as {controls, [key]: control}. A
 * field [key, label, opts] is the log-scale ε slider for key eps or ea, a
 * select for an enum key (opts.text(value) is what a value shows; opts.wide),
 * and a number box for any other key (opts go to keyInput); each change is
 * stored with ctx.set, then refresh runs. A field that is a control already
 * built ({el}) is placed as it is.
 */
export function keyControls(ctx, schema, refresh, fields) {
  const controls = controlsBox();
  const made = { controls };
  for (const f of fields) {
    let c = f;
    if (Array.isArray(f)) {
      const [key, label, { text = String, ...opts } = {}] = f;
      c = made[key] = key === 'eps' || key === 'ea' ? epsSlider(ctx, schema, label, refresh, key)
        : schema[key].type === 'enum' ? keySelect(ctx, schema, key, label, text, refresh, opts)
          : keyInput(ctx, schema, key, label, refresh, opts);
    }
    controls.append(c.el);
  }
  return made;
}
