// The SAML front's only script (docs/saml.md, "HTTP-POST"): posts the Response form to the SP at once.
document.querySelector('form[data-saml-post]')?.submit();
