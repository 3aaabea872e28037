import { useState } from 'preact/hooks'
import { api } from '../api/client'
import type { CreatedProject, CreateProjectBody } from '../api/types'
import { Button, FormError, Page, TextArea, TextField, useAction } from '../components'
import { navigate } from '../router'
import { loadProjects, projectCreationDenied } from '../session'

/** `/projects/new`: name (required), slug, description, website. Opens the project's setup checklist when created. */
export function NewProject() {
  const [name, setName] = useState('')
  const [slug, setSlug] = useState('')
  const [description, setDescription] = useState('')
  const [website, setWebsite] = useState('')
  const { busy, error, onSubmit } = useAction(async () => {
    const body: CreateProjectBody = { name: name.trim() }
    if (slug.trim()) body.slug = slug.trim()
    if (description.trim()) body.description = description.trim()
    if (website.trim()) body.website_url = website.trim()
    const created = await api.post<CreatedProject>('/projects', body)
    await loadProjects().catch(() => undefined)
    navigate(`/projects/${encodeURIComponent(created.slug)}/setup`)
  })
  return (
    <Page title="New project">
      <form class="card stack narrow" onSubmit={onSubmit} noValidate>
        {projectCreationDenied.value && <p class="muted">{projectCreationDenied.value}</p>}
        <TextField label="Project name" required maxLength={150} value={name} onValue={setName} />
        <TextField label="Slug" maxLength={60} value={slug} onValue={setSlug} hint="Optional: used in URLs. Default: the name in lowercase with hyphens (a short prefix is added)." />
        <TextArea label="Description" rows={3} value={description} onValue={setDescription} />
        <TextField label="Website" type="url" placeholder="https://" value={website} onValue={setWebsite} />
        <FormError error={error} />
        <div class="row">
          <Button type="submit" variant="primary" busy={busy} disabled={!name.trim()} reason={projectCreationDenied.value}>
            Create project
          </Button>
          <a href="/">Cancel</a>
        </div>
      </form>
    </Page>
  )
}
