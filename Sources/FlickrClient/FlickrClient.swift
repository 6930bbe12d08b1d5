// FlickrClient: everything Virtual Tourist needs from Flickr, and nothing from GTK or the store.
//
// - `FlickrSearching` / `FlickrAPIClient`: `flickr.photos.search` around a coordinate → `FlickrSearchPage`.
// - `PhotoDownloading` / `PhotoDownloader`: image URLs → files, bounded, retried, cancellable per pin.
// - `AlbumPaging`: which page New Collection asks for, and which photos of it to show.
// - `FlickrAPIKeyResolver`: the API key from the environment, the user's settings or the build.
// - `FlickrConfiguration`, `TransportSecurity`: endpoint, limits, time-outs; HTTPS except on loopback.
// - `FlickrError`: every failure, with a message a person can act on; never contains the key.
