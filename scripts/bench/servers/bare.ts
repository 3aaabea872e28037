// The baseline every route is compared to: a bare Bun.serve handler answering JSON, no framework.
Bun.serve({
  port: Number(process.env.PORT),
  hostname: '127.0.0.1',
  fetch: () => Response.json({ status: 'healthy' }),
})
