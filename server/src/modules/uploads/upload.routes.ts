import { Router } from 'express';
import { unauthenticated } from '@server/platform/http/errors';
import { bearerToken, guard, type Guard } from '@server/platform/http/auth';
import type { AccessLogWriter, OperatorCaller } from '@server/platform/http/operator-gate';
import { declare, type RouteSpec } from '@server/platform/http/route';
import type { AuthService } from '../auth/auth.service';
import type { UploadService, Viewer } from './upload.service';

/**
 * The operator behind a bearer token if they may see review material (the service token, or a
 * session of a reviewer or an admin), else null.
 */
export type ReviewerCheck = (token: string) => Promise<OperatorCaller | null>;

/**
 * 401 without a live session or a reviewing operator's token; puts the viewer in
 * `res.locals.viewer`, and an operator in `res.locals.operator`.
 */
function requireViewer(auth: AuthService, reviewerOf: ReviewerCheck): Guard {
  return guard('userOrOperator', async (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) throw unauthenticated();
    let viewer: Viewer;
    const operator = await reviewerOf(token);
    if (operator) {
      viewer = { operator: true };
      res.locals.operator = operator;
    } else {
      const session = await auth.authenticate(token);
      if (!session) throw unauthenticated();
      viewer = { userId: session.userId };
    }
    res.locals.viewer = viewer;
    next();
  });
}

/**
 * GET /api/uploads/:id: the image, to its owner or an operator; 404 to anyone else. An image an
 * operator is shown is recorded in the access log first (issue 33): no record, no image.
 */
export function uploadRoutes(deps: {
  uploads: UploadService;
  auth: AuthService;
  reviewerOf: ReviewerCheck;
  accessLog: AccessLogWriter;
}): Router {
  const r = Router();
  const spec = {
    method: 'get',
    path: '/uploads/:id',
    operationId: 'upload',
    summary: 'An uploaded image, to its owner or an operator',
    tag: 'Content',
    auth: requireViewer(deps.auth, deps.reviewerOf),
    responses: { 200: { media: 'image/*', description: 'The image' } },
    errors: { 404: ['NOT_FOUND'] },
  } satisfies RouteSpec;
  declare(r, spec, async (req, res) => {
    const file = await deps.uploads.read(String(req.params.id), res.locals.viewer as Viewer);
    const operator = res.locals.operator as OperatorCaller | undefined;
    if (operator)
      await deps.accessLog.recordRead({
        operator,
        kind: 'upload',
        uploadId: file.id,
        address: req.ip ?? '',
      });
    // The type comes from the stored bytes and nosniff stops a browser guessing another one. As a
    // guarded route it carries `Cache-Control: no-store` (route.ts): no cache, not even the
    // browser's own, keeps an identity photo.
    res.set({
      'Content-Type': file.mime,
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': `inline; filename="${file.id}.${file.ext}"`,
    });
    res.send(file.bytes);
  });
  return r;
}
