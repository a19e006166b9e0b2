/** {@code gpugen drift}: the spec against EC2 and against the nodes' baseline facts. */
package dev.gpugen.drift;
