import { Router } from 'express';
import { unauthenticated } from '@server/platform/http/errors';
import { bearerToken, guard, type Guard } from '@server/platform/http/auth';
import { declare, type RouteSpec } from '@server/platform/http/route';
import type { AuthService } from '../auth/auth.service';
import type { UploadService, Viewer } from './upload.service';

/**
 * Whether a bearer token is an operator's that may see review material (the service token, or a
 * session of a reviewer or an admin).
 */
export type ReviewerCheck = (token: string) => Promise<boolean>;

/** 401 without a live session or a reviewing operator's token; puts the viewer in `res.locals.viewer`. */
function requireViewer(auth: AuthService, isReviewer: ReviewerCheck): Guard {
  return guard('userOrOperator', async (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) throw unauthenticated();
    let viewer: Viewer;
    if (await isReviewer(token)) viewer = { operator: true };
    else {
      const session = await auth.authenticate(token);
      if (!session) throw unauthenticated();
      viewer = { userId: session.userId };
    }
    res.locals.viewer = viewer;
    next();
  });
}

/** GET /api/uploads/:id: the image, to its owner or an operator; 404 to anyone else. */
export function uploadRoutes(deps: {
  uploads: UploadService;
  auth: AuthService;
  isReviewer: ReviewerCheck;
}): Router {
  const r = Router();
  const spec = {
    method: 'get',
    path: '/uploads/:id',
    operationId: 'upload',
    summary: 'An uploaded image, to its owner or an operator',
    tag: 'Content',
    auth: requireViewer(deps.auth, deps.isReviewer),
    responses: { 200: { media: 'image/*', description: 'The image' } },
    errors: { 404: ['NOT_FOUND'] },
  } satisfies RouteSpec;
  declare(r, spec, async (req, res) => {
    const file = await deps.uploads.read(String(req.params.id), res.locals.viewer as Viewer);
    // The type comes from the sniffed bytes and nosniff stops a browser guessing another one;
    // private: a shared cache must never hand one user's identity photo to another.
    res.set({
      'Content-Type': file.mime,
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': `inline; filename="${file.id}.${file.ext}"`,
      'Cache-Control': 'private, max-age=3600',
    });
    res.send(file.bytes);
  });
  return r;
}
