/**
 * The GPU compatibility knowledge base: one reviewed data file ({@code compat.yaml}) and a small
 * typed API over it.
 *
 * <p>Not a pipeline stage: the linter, the Terraform render and the Ansible render all ask the same
 * {@link dev.gpugen.compat.CompatTable}. Every row carries the URLs it was copied from. Versions
 * are compared part by part as numbers ({@link dev.gpugen.compat.Version}), never as strings.
 */
package dev.gpugen.compat;
