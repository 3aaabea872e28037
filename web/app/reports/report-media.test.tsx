import { render } from 'preact-render-to-string'
import { describe, expect, it } from 'vitest'
import { FileList, fileKind } from './ReportMedia'

describe('fileKind', () => {
  it.each([
    [{ file_name: 'crash.dmp', mime_type: 'application/x-minidump' }, 'minidump'],
    [{ file_name: 'view-hierarchy.json', mime_type: 'application/json' }, 'view hierarchy'],
    [{ file_name: 'view_hierarchy.json', mime_type: 'text/plain' }, 'view hierarchy'],
    [{ file_name: 'screenshot.png', mime_type: 'image/png' }, 'image'],
    [{ file_name: 'replay.webm', mime_type: 'video/webm' }, 'video'],
    [{ file_name: 'game.log', mime_type: 'text/plain' }, 'file'],
    [{ file_name: 'blob', mime_type: null }, 'file'],
  ])('%o → %s', (f, kind) => expect(fileKind(f)).toBe(kind))
})

describe('FileList', () => {
  it('offers crash reporters’ files as named downloads', () => {
    const html = render(
      <FileList
        files={[
          { id: '1', file_name: 'crash.dmp', file_size: 2048, mime_type: 'application/x-minidump', file_url: '/api/files/a.dmp' },
          { id: '2', file_name: 'view-hierarchy.json', file_size: 10, mime_type: 'application/json', file_url: '/api/files/b.json' },
        ]}
      />,
    )
    expect(html).toContain('<span class="badge badge-info">Minidump</span>')
    expect(html).toContain('<a href="/api/files/a.dmp" download="crash.dmp" data-native>Download crash.dmp</a>')
    expect(html).toContain('<span class="badge badge-info">View hierarchy</span>')
    expect(html).toContain('Download view-hierarchy.json')
    expect(html).not.toContain('<img')
  })
})
