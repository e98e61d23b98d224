import { DefinitionError, UriTemplate } from '@typemcp/protocol';

describe('UriTemplate', () => {
  it.each([
    ['test://template/{id}/data', 'test://template/123/data', { id: '123' }],
    ['test://template/{id}/data', 'test://template/a%20b/data', { id: 'a b' }],
    ['notes://{id}', 'notes://n.1', { id: 'n.1' }],
    ['file:///{+path}', 'file:///a/b/c.txt', { path: 'a/b/c.txt' }],
    ['db://{schema}/{table}', 'db://public/users', { schema: 'public', table: 'users' }],
    ['api://items{?page,limit}', 'api://items?limit=5&page=2', { page: '2', limit: '5' }],
    ['api://items{?page,limit}', 'api://items', {}],
    ['fs://root{/segments*}', 'fs://root/a/b', { segments: ['a', 'b'] }],
    ['doc://x{#section}', 'doc://x#intro', { section: 'intro' }],
    ['pkg://{name}{.ext}', 'pkg://lib.tar', { name: 'lib', ext: 'tar' }],
  ])('%s matches %s', (template, uri, expected) => {
    expect(new UriTemplate(template).match(uri)).toEqual(expected);
  });

  it.each([
    ['test://template/{id}/data', 'test://template/1/2/data'],
    ['test://template/{id}/data', 'test://template//data'],
    ['notes://{id}', 'other://1'],
  ])('%s does not match %s', (template, uri) => {
    expect(new UriTemplate(template).match(uri)).toBeUndefined();
  });

  it('lists variable names and rejects malformed templates with a stable code', () => {
    expect(new UriTemplate('a://{x}/{+y}{?z}').variableNames).toEqual(['x', 'y', 'z']);
    expect(() => new UriTemplate('a://{x')).toThrow(DefinitionError);
    expect(() => new UriTemplate('a://{bad-name}')).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_URI_TEMPLATE' }));
  });
});
