/**
 * The facade's request and response types that the core model does not already hold: what a front door builds to
 * call a facet, and what a facet gives back. Front doors map these to their own wire forms.
 */
package io.polyrag.app.api;
