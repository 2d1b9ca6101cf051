/**
 * Generated multi-document manifests for benchmarks: Deployments (about 40 lines each), Services and
 * ConfigMaps in turn, with one known error.
 */

/** A file of `count` resources; resource 0 carries one error (replicas as a string) when `withError`. */
export function generateManifests(count: number, withError = true): string {
  const documents: string[] = [];
  for (let i = 0; i < count; i++) {
    switch (i % 3) {
      case 0:
        documents.push(deployment(i, withError && i === 0));
        break;
      case 1:
        documents.push(service(i));
        break;
      default:
        documents.push(configMap(i));
    }
  }
  return documents.join('---\n');
}

function deployment(i: number, broken: boolean): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
  labels:
    app: app-${i}
    tier: backend
spec:
  replicas: ${broken ? '"3"' : '3'}
  selector:
    matchLabels:
      app: app-${i}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app: app-${i}
        tier: backend
    spec:
      containers:
        - name: app
          image: registry.example.com/app-${i}:1.0.${i}
          ports:
            - name: http
              containerPort: 8080
          env:
            - name: LOG_LEVEL
              value: info
          resources:
            requests:
              cpu: 100m
              memory: 128Mi
            limits:
              cpu: 500m
              memory: 256Mi
          readinessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 5
`;
}

function service(i: number): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: svc-${i}
spec:
  selector:
    app: app-${i - 1}
  ports:
    - name: http
      port: 80
      targetPort: http
`;
}

function configMap(i: number): string {
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: config-${i}
data:
  setting: "value-${i}"
  other: "more-${i}"
`;
}
