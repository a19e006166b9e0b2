/**
 * {@code gpugen report}: play 05's per-host reports ({@code reports/<host>.json}) read back and
 * drawn as one self-contained HTML page and a JUnit XML file. Every report field came from a node
 * and is hostile: it is escaped for the language it lands in, never interpreted.
 */
package dev.gpugen.report;
