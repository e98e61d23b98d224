/**
 * What interceptors see as `call.service` for a mounted server's tool, resource or prompt:
 * `call.service === MountedServer`, `call.name` the exposed name, `call.method` the upstream's
 * name (a resource's upstream URI). A marker: the gateway never makes one.
 * @publicApi
 */
export class MountedServer {}
