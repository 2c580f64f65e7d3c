"""The cross-cutting work of every HTTP request: small pure ASGI middlewares, one job each (STYLE 4).

From the outside in (``service.app.create_app`` adds them in the reverse order):

1. :class:`~service.middleware.access.RequestIdAndAccessLine`: the request id (``X-Request-ID`` or a
   new one) on the response and in the scope, the security headers, and the request's access line;
2. :class:`~service.middleware.metrics.RequestMetrics`: the Prometheus counters and histogram;
3. :class:`~service.middleware.cors.Cors`: Starlette's ``CORSMiddleware``, its refused preflights
   answered as problems;
4. :class:`~service.middleware.answers.UnreadAnswers`: the answer bytes held for clients that have
   not read them, capped for the process (a 503 past the cap);
5. :class:`~service.middleware.limits.BodyLimit`: the body's size and the time it may take to arrive;
6. :class:`~service.middleware.errors.LastResort`: an exception nothing else answered becomes a 500
   problem, its traceback logged at ERROR with the request id.

Then FastAPI's own stack (its exception handlers, ``service.problems``, and its router). None of them
buffers a body: only ``http.response.start`` is looked at (a large body is passed on in pieces),
and ``receive`` is wrapped, not read.
"""
