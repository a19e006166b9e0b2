[=header]
#
# /etc/nccl.conf on every GPU node: an init container copies the ConfigMap onto the host through a
# hostPath mount of /etc (written beside, then renamed, so NCCL never reads half a file). The
# checksum annotation rolls the DaemonSet when the settings change. (Terraform renders the same
# DaemonSet when GitOps is off.)
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: gpugen-nccl-conf
  namespace: [=yaml(argocd.ncclConfig.namespace)]
  labels:
    app.kubernetes.io/managed-by: gpugen
spec:
  selector:
    matchLabels:
      app: gpugen-nccl-conf
  template:
    metadata:
      labels:
        app: gpugen-nccl-conf
      annotations:
        gpugen/nccl-conf-sha256: [=yaml(argocd.ncclConfSha256)]
    spec:
      priorityClassName: system-node-critical
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - key: cloud.google.com/gke-accelerator
                    operator: Exists
      # GPU pools are often tainted; the file must reach every one of them.
      tolerations:
        - operator: Exists
      initContainers:
        - name: write-nccl-conf
          image: busybox:1.36.1
          command:
            - /bin/sh
            - -c
            - cp /gpugen/nccl.conf /host-etc/.nccl.conf.gpugen && chmod 0644 /host-etc/.nccl.conf.gpugen && mv -f /host-etc/.nccl.conf.gpugen /host-etc/nccl.conf
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            runAsUser: 0
          volumeMounts:
            - name: config
              mountPath: /gpugen
              readOnly: true
            - name: host-etc
              mountPath: /host-etc
      containers:
        - name: pause
          image: registry.k8s.io/pause:3.10
          resources:
            limits:
              cpu: 10m
              memory: 16Mi
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            runAsNonRoot: true
            runAsUser: 65535
      volumes:
        - name: config
          configMap:
            name: gpugen-nccl-conf
        - name: host-etc
          hostPath:
            path: /etc
            type: Directory
