import { Router } from 'express';
import { unauthenticated } from '@server/platform/http/errors';
import { bearerToken, guard, type Guard } from '@server/platform/http/auth';
import type { AccessLogWriter, OperatorCaller } from '@server/platform/http/operator-gate';
import { serve } from '@server/platform/http/serve';
import * as endpoints from '@shared/uploads/endpoints';
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
 * GET /api/uploads/:id (shared/src/uploads/endpoints.ts): the image, to its owner or an operator;
 * 404 to anyone else. An image an
 * operator is shown is recorded in the access log first (issue 33): no record, no image.
 */
export function uploadRoutes(deps: {
  uploads: UploadService;
  auth: AuthService;
  reviewerOf: ReviewerCheck;
  accessLog: AccessLogWriter;
}): Router {
  const r = Router();
  const viewer = requireViewer(deps.auth, deps.reviewerOf);
  serve(r, endpoints.upload, viewer, async ({ params }, { req, res }) => {
    const file = await deps.uploads.read(params.id, res.locals.viewer as Viewer);
    const operator = res.locals.operator as OperatorCaller | undefined;
    if (operator)
      await deps.accessLog.recordRead({
        operator,
        kind: 'upload',
        uploadId: file.id,
        address: req.ip ?? '',
      });
    // The type is of the stored bytes (serve.ts adds nosniff and, as a guarded endpoint's,
    // `Cache-Control: no-store`: no cache, not even the browser's own, keeps an identity photo).
    return { bytes: file.bytes, type: file.mime, name: `${file.id}.${file.ext}` };
  });
  return r;
}
