import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/config'

const KEYS = { GLITCHBOX_S3_ACCESS_KEY_ID: 'AKID', GLITCHBOX_S3_SECRET_ACCESS_KEY: 'shh' }

describe('S3 configuration', () => {
  it('keeps files on local disk unless a bucket is named', () => {
    expect(loadConfig({})).toMatchObject({ s3Bucket: undefined, s3Region: 'us-east-1' })
  })

  it('reads the bucket, endpoint, region, keys and prefix, the prefix ending in /', () => {
    const c = loadConfig({ GLITCHBOX_S3_BUCKET: 'studio-files', GLITCHBOX_S3_ENDPOINT: 'http://127.0.0.1:9000/', GLITCHBOX_S3_REGION: 'eu-central-1', GLITCHBOX_S3_PREFIX: 'glitchbox/prod', ...KEYS })
    expect(c).toMatchObject({ s3Bucket: 'studio-files', s3Endpoint: 'http://127.0.0.1:9000', s3Region: 'eu-central-1', s3AccessKeyId: 'AKID', s3SecretAccessKey: 'shh', s3Prefix: 'glitchbox/prod/' })
  })

  it('falls back on the standard AWS variables for the keys', () => {
    const c = loadConfig({ GLITCHBOX_S3_BUCKET: 'studio-files', AWS_ACCESS_KEY_ID: 'AWSID', AWS_SECRET_ACCESS_KEY: 'aws-secret' })
    expect(c).toMatchObject({ s3AccessKeyId: 'AWSID', s3SecretAccessKey: 'aws-secret' })
    expect(loadConfig({ GLITCHBOX_S3_BUCKET: 'studio-files', AWS_ACCESS_KEY_ID: 'AWSID', AWS_SECRET_ACCESS_KEY: 'aws-secret', ...KEYS }).s3AccessKeyId).toBe('AKID')
  })

  it.each([
    ['a bucket without keys', { GLITCHBOX_S3_BUCKET: 'studio-files' }, 'GLITCHBOX_S3_BUCKET needs GLITCHBOX_S3_ACCESS_KEY_ID and GLITCHBOX_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)'],
    ['an invalid bucket name', { GLITCHBOX_S3_BUCKET: 'Studio_Files', ...KEYS }, /^invalid GLITCHBOX_S3_BUCKET="Studio_Files": must be an S3 bucket name/],
    ['an endpoint that is no origin', { GLITCHBOX_S3_BUCKET: 'studio-files', GLITCHBOX_S3_ENDPOINT: 'minio:9000', ...KEYS }, /^invalid GLITCHBOX_S3_ENDPOINT="minio:9000": must be an http/],
    ['an endpoint with a path', { GLITCHBOX_S3_BUCKET: 'studio-files', GLITCHBOX_S3_ENDPOINT: 'http://minio:9000/bucket', ...KEYS }, /^invalid GLITCHBOX_S3_ENDPOINT=/],
    ['a bad region', { GLITCHBOX_S3_REGION: 'EU West' }, /^invalid GLITCHBOX_S3_REGION="EU West"/],
    ['a prefix starting with /', { GLITCHBOX_S3_PREFIX: '/files' }, /^invalid GLITCHBOX_S3_PREFIX="\/files"/],
    ['a prefix with an empty part', { GLITCHBOX_S3_PREFIX: 'a//b' }, /^invalid GLITCHBOX_S3_PREFIX=/],
  ])('stops start-up on %s, naming the variable', (_, env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })
})
