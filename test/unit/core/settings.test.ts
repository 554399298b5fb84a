import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_DENY_PATTERNS, DEFAULT_MCP_SETTINGS, DEFAULT_SETTINGS, MCP_ANSWER_WITHIN_BOUNDS, MCP_HTTP_PORT_BOUNDS, MCP_SETTING_KEYS, SETTING_BOUNDS, SETTING_KEYS, SETTINGS_SECTION } from '../../../src/core/settings';
import { FOLDER_SETTINGS_KEY } from '../../../src/core/settingLayers';

interface SettingSchema {
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

const properties = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, SettingSchema> } } }).contributes.configuration.properties;

describe('settings', () => {
  it('declares every setting package.json contributes, and no other', () => {
    const keys = [...Object.values(SETTING_KEYS), ...Object.values(MCP_SETTING_KEYS), FOLDER_SETTINGS_KEY];
    assert.deepEqual(keys.map((key) => `${SETTINGS_SECTION}.${key}`).sort(), Object.keys(properties).sort());
  });

  for (const [field, key] of Object.entries(MCP_SETTING_KEYS)) {
    it(`defaults ${key} to what package.json says`, () => {
      assert.deepEqual(DEFAULT_MCP_SETTINGS[field as keyof typeof MCP_SETTING_KEYS], properties[`${SETTINGS_SECTION}.${key}`].default);
    });
  }

  it('bounds mcp.httpPort as package.json does', () => {
    const schema = properties[`${SETTINGS_SECTION}.${MCP_SETTING_KEYS.httpPort}`];
    assert.deepEqual({ min: schema.minimum, max: schema.maximum }, MCP_HTTP_PORT_BOUNDS);
  });

  it('bounds mcp.answerWithinSeconds as package.json does', () => {
    const schema = properties[`${SETTINGS_SECTION}.${MCP_SETTING_KEYS.answerWithinSeconds}`];
    assert.deepEqual({ min: schema.minimum, max: schema.maximum }, MCP_ANSWER_WITHIN_BOUNDS);
  });

  for (const [field, key] of Object.entries(SETTING_KEYS)) {
    it(`defaults ${key} to what package.json says`, () => {
      assert.deepEqual(DEFAULT_SETTINGS[field as keyof typeof SETTING_KEYS], properties[`${SETTINGS_SECTION}.${key}`].default);
    });
  }

  for (const [field, bounds] of Object.entries(SETTING_BOUNDS)) {
    it(`bounds ${field} as package.json does`, () => {
      const schema = properties[`${SETTINGS_SECTION}.${SETTING_KEYS[field as keyof typeof SETTING_BOUNDS]}`];
      assert.deepEqual({ min: schema.minimum, max: schema.maximum }, bounds);
    });
  }

  describe('command policy settings in package.json', () => {
    it('ship the built-in deny patterns as the default of workspaceAgentTools.runCommand.deny', () => {
      assert.deepEqual(properties['workspaceAgentTools.runCommand.deny'].default, DEFAULT_DENY_PATTERNS);
    });
  });
});
