import { describe, expect, it } from 'vitest';
import { prepareSchema, uiSchemaFor, withTemplateWidget, withoutUnused } from './schemaForm';

const LOG = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://flowyard.example/schemas/nodes/log.schema.json',
  title: 'log node config',
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    level: { enum: ['debug', 'info', 'warning', 'error'] },
    extra: { type: 'string' },
  },
};
const t = (key: string) => `«${key}»`;

describe('schema form mapping', () => {
  it('drops the draft URI and the English title, and turns enums into translated choices', () => {
    const schema = prepareSchema(LOG, t);
    expect(schema).not.toHaveProperty('$schema');
    expect(schema).not.toHaveProperty('title');
    expect(schema.required).toEqual(['message']);
    const level = (schema.properties as Record<string, { oneOf: unknown[] }>).level;
    expect(level?.oneOf[0]).toEqual({ const: 'debug', title: '«ui_choice_level_debug»' });
    // Without a type rjsf cannot draw the choices ("Unknown field type undefined").
    expect(level).toHaveProperty('type', 'string');
  });

  it('offers text for a field that takes any JSON value, and drops the English descriptions', () => {
    const schema = prepareSchema(
      { type: 'object', properties: { body: { description: 'Any JSON value.' } } },
      t,
    );
    expect(schema.properties).toEqual({ body: { type: 'string' } });
  });

  it('labels every field from the catalogs, hides the submit button, and uses a text area for messages', () => {
    const ui = uiSchemaFor(LOG, t);
    expect(ui.message).toEqual({
      'ui:title': '«ui_field_message»',
      'ui:description': '',
      'ui:widget': 'textarea',
    });
    expect(ui.level['ui:title']).toBe('«ui_field_level»');
    // A field the catalogs do not name shows no title rather than its internal key.
    expect(ui.extra['ui:title']).toBe('');
    expect(ui['ui:submitButtonOptions']).toEqual({ norender: true });
  });

  it("gives template fields the completing widget, a set's values and a while's operands included", () => {
    const widget = () => null;
    const ui = withTemplateWidget(uiSchemaFor(LOG, t), LOG, widget);
    expect(ui.message['ui:widget']).toBe(widget);
    expect(ui.message['ui:options']).toEqual({ multiline: true });
    expect(ui.level['ui:widget']).toBeUndefined();
    const set = { properties: { values: { type: 'object' } } };
    expect(withTemplateWidget({}, set, widget).values.additionalProperties).toEqual({ 'ui:widget': widget });
    const repeat = { properties: { while: { type: 'object' } } };
    expect(withTemplateWidget({}, repeat, widget).while.left).toEqual({ 'ui:widget': widget });
  });

  it('drops the rules between fields, which rjsf would draw as untitled options', () => {
    const delay = {
      type: 'object',
      properties: { duration: { type: 'string' } },
      oneOf: [{ required: ['duration'] }],
    };
    const trigger = { ...LOG, if: { required: ['kind'] }, then: { required: ['cron'] }, else: {} };
    expect(prepareSchema(delay, t)).not.toHaveProperty('oneOf');
    expect(Object.keys(prepareSchema(trigger, t))).not.toContain('if');
  });

  it("hides a trigger's cron and time zone unless it is a schedule, and drops their leftovers", () => {
    const trigger = { properties: { kind: {}, cron: {}, timezone: {}, record_input: {} } };
    const manual = uiSchemaFor(trigger, t, { kind: 'manual' });
    expect(manual.cron['ui:widget']).toBe('hidden');
    expect(manual.timezone['ui:widget']).toBe('hidden');
    expect(manual.record_input['ui:title']).toBe('«ui_field_record_input»');
    expect(uiSchemaFor(trigger, t, { kind: 'schedule' }).cron['ui:widget']).toBeUndefined();
    expect(withoutUnused('trigger', { kind: 'manual', cron: '0 9 * * 1', timezone: 'UTC' })).toEqual({
      kind: 'manual',
    });
    const schedule = { kind: 'schedule', cron: '0 9 * * 1', timezone: 'UTC' };
    expect(withoutUnused('trigger', schedule)).toEqual(schedule);
  });
});
