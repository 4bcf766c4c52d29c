// /api/docs: Swagger UI (swagger-ui-dist from npm, served from node_modules) on the app's own
// OpenAPI schema. A file, not an inline script, so the page keeps the app's CSP.
"use strict";

(function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    domNode: root,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    validatorUrl: null, // the default badge fetches from validator.swagger.io
  });
})();
